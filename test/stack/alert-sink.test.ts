// The compose stack's alert-sink (deploy/alert-sink/server.mjs) really is the webhook receiver
// Alertmanager and Grafana post to: it answers its health check, logs one line per alert and
// lists what it received. Runs the shipped script with this machine's node.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/backends.js';
import { PATHS } from './stack-files.js';

describe('deploy/alert-sink/server.mjs', () => {
  let child: ChildProcess;
  let out = '';
  let base = '';

  beforeAll(async () => {
    child = spawn(process.execPath, [PATHS.alertSink], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const port = await waitFor(() => /listening on 127\.0\.0\.1:(\d+)/.exec(out)?.[1], { what: 'alert-sink to listen', timeoutMs: 10_000 });
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('answers its health check', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
  });

  it('logs and keeps the alerts of an Alertmanager notification', async () => {
    const payload = {
      version: '4',
      status: 'firing',
      receiver: 'agents-page',
      alerts: [
        { status: 'firing', labels: { alertname: 'FootprintPingPongTrip', service_name: 'shop', footprint_agent: 'desk' }, annotations: { summary: 'Agent desk ping-ponged' } },
      ],
    };
    const res = await fetch(`${base}/alertmanager/page`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect(res.status).toBe(200);
    await waitFor(() => out.includes('FootprintPingPongTrip'), { what: 'the log line', timeoutMs: 5_000 });
    expect(out).toMatch(/\[alert-sink\] \/alertmanager\/page firing FootprintPingPongTrip .*"footprint_agent":"desk".* - Agent desk ping-ponged/);
    const list = (await (await fetch(`${base}/alerts`)).json()) as Array<{ path: string; labels: Record<string, string> }>;
    expect(list.at(-1)).toMatchObject({ path: '/alertmanager/page', labels: { alertname: 'FootprintPingPongTrip' } });
  });

  it('rejects a body that is not JSON without dying', async () => {
    const res = await fetch(`${base}/grafana`, { method: 'POST', body: 'not json' });
    expect(res.status).toBe(400);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});
