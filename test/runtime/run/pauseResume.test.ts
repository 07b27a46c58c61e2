import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CheckpointError, isPaused } from '../../../src/index.js';
import { collect } from '../../fixtures/collect.js';
import { refundAgent } from '../../fixtures/refundAgent.js';
import { compiled } from '../../support/compiled.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('fp-resume-');

const run = promisify(execFile);

describe('pause and resume', () => {
  it('pauses on ctx.pause with a plain-JSON checkpoint and the question', async () => {
    const agent = refundAgent();
    const seen = collect(agent);
    const out = await agent.run('Refund INV-7 please');
    expect(isPaused(out)).toBe(true);
    if (!isPaused(out)) return;
    expect(out.paused.question).toBe('Approve a refund of $40 for INV-7?');
    expect(JSON.parse(JSON.stringify(out.paused.checkpoint))).toEqual(out.paused.checkpoint);
    expect(out.paused.checkpoint).toMatchObject({ format: 'footprint-otel/checkpoint@4', runner: { kind: 'agent', id: 'refunds' } });
    expect(seen.of('footprint.run.paused')).toEqual([
      { question: 'Approve a refund of $40 for INV-7?', toolCallId: 'ref', toolName: 'refund', agentId: 'refunds' },
    ]);
    const ends = seen.of('footprint.call.tool_end');
    expect(ends.map((e) => [e.toolName, e.status])).toEqual([['lookup_invoice', 'ok'], ['refund', 'paused']]);
    expect(seen.of('footprint.agent.turn_end')).toEqual([]);
  });

  it('resumes on a new Agent instance in another process, keeping the run id', async () => {
    const agent = refundAgent();
    const seen = collect(agent);
    const out = await agent.run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    const dir = scratch();
    const file = join(dir, 'checkpoint.json');
    writeFileSync(file, JSON.stringify(out.paused.checkpoint));
    const child = await run(process.execPath, [compiled('test/fixtures/resumeInChild.ts'), 'refund', file, 'yes'], {
      cwd: process.cwd(),
    });
    const report = JSON.parse(child.stdout) as { result: string; events: { type: string; runId: string }[]; pid: number };
    expect(report.pid).not.toBe(process.pid);
    expect(report.result).toBe('Done: invoice INV-7: $40 paid | refunded $40');
    const types = report.events.map((e) => e.type);
    expect(types[0]).toBe('footprint.call.tool_start');
    expect(types).toContain('footprint.run.resumed');
    expect(types.at(-1)).toBe('footprint.agent.turn_end');
    // the lookup that finished before the pause is not run again; only the paused tool re-runs
    expect(report.events.filter((e) => e.type === 'footprint.call.tool_start')).toHaveLength(1);
    const runId = seen.events[0]!.meta.runId;
    expect(new Set(report.events.map((e) => e.runId))).toEqual(new Set([runId]));
  });

  it('resumes in process with a declined answer, and refuses a foreign checkpoint', async () => {
    const agent = refundAgent();
    const out = await agent.run('Refund INV-7 please');
    if (!isPaused(out)) throw new Error('expected a pause');
    expect((await refundAgent().resume(out.paused.checkpoint, 'no')).text).toBe('Done: invoice INV-7: $40 paid | refund declined');
    const other = { ...out.paused.checkpoint, runner: { kind: 'agent', id: 'someone-else' } };
    await expect(agent.resume(other, 'yes')).rejects.toThrow(CheckpointError);
    await expect(agent.resume('{not json', 'yes')).rejects.toThrow(/not valid JSON/);
  });
});
