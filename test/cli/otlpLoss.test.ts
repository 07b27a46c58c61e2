/**
 * The demo against a collector that takes nothing: answering 500 to every export, or never answering.
 * The runs complete; the account counts every span and data point as lost with its cause — HTTP 500;
 * or, when the collector hangs, a timeout (the demo's exports give up after 3 s) and, for what was
 * still under way when the demo stopped waiting (after its stated 5 s, said while it waits), the exit
 * deadline — never claims that telemetry was sent, and the exit status is 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../telemetry/receiver.js';
import { cli, parseSummary, tempDir } from '../support/cli.js';

describe('a collector that takes nothing', () => {
  const temp = tempDir('otlp-loss');
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.stop();
    temp.remove();
  });

  it('answering 500: every span lost as HTTP 500, nothing claimed as sent, exit 3', async () => {
    receiver.reply = { status: 500 };
    const result = await cli([], { cwd: temp.dir, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    expect(result.code).toBe(3);
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 12, outcomes: { ok: 12 } });
    const account = /^Telemetry: spans 0 exported, (\d+) lost \(HTTP 500 (\d+)\); metric data points 0 exported, (\d+) lost \(HTTP 500 (\d+)\)$/m.exec(result.stdout);
    expect(account).not.toBeNull();
    expect(account![2]).toBe(account![1]);
    expect(account![4]).toBe(account![3]);
    expect(result.stdout).not.toMatch(/sent over|localhost:16686|localhost:3000/);
    expect(result.stderr).toContain(`warning: telemetry spans lost: 0 exported, ${account![1]} lost (HTTP 500 ${account![1]});`);
    expect(result.stderr).toContain('warning: every span of this run was lost; exit status 3');
  }, 120_000);

  it('never answering: the demo says it flushes for up to 5 s, then counts what was not sent as lost, by cause, exit 3', async () => {
    receiver.reply = 'hang';
    const result = await cli([], { cwd: temp.dir, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    expect(result.code).toBe(3);
    expect(parseSummary(result.stdout).runs).toBe(12);
    expect(result.stderr.split('\n')[0]).toBe(`flushing telemetry to ${receiver.url}, up to 5 s`);
    const account = /^Telemetry: spans 0 exported, (\d+) lost \(timeout \1\); metric data points 0 exported, (\d+) lost \((.*)\)$/m.exec(result.stdout);
    expect(account).not.toBeNull();
    // the final metric export is cut off at the exit deadline; a periodic one (every 5 s) that began
    // during the runs timed out before it (the demo yields to the event loop, so its timers run)
    const causes = account![3]!.split(', ').map((part) => /^(not flushed by the exit deadline|timeout) (\d+)$/.exec(part));
    expect(causes.every((cause) => cause !== null)).toBe(true);
    expect(causes.reduce((sum, cause) => sum + Number(cause![2]), 0)).toBe(Number(account![2]));
    expect(causes.map((cause) => cause![1])).toContain('not flushed by the exit deadline');
    expect(result.stderr).toContain('warning: telemetry was not fully flushed within 5 s; the rest is counted as lost');
  }, 120_000);
});
