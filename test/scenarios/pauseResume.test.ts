/**
 * Pause and resume: a pause ends every open span (marked paused) and carries the run span's W3C
 * traceparent in the checkpoint; the resumed run, in this process or in a child process started from
 * the checkpoint alone, starts its run span as a child of the paused run span, in the same trace,
 * linked to it.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DETAIL_ENV, tracingInstrument } from '../../src/otel/index.js';
import { isPaused, registerInstrument, type Paused } from '../../src/runtime/index.js';
import { approvalAgent, CALL_COST, expectResumedApprovalRun, TURN_UP_TO_CHAT } from '../support/agents.js';
import { compiled } from '../support/compiled.js';
import { startSdk } from '../support/sdk.js';
import { render, structure, payloadOf } from '../support/traceTree.js';
import { scratchFolders } from '../support/scratch.js';

const scratch = scratchFolders('fp-resume-');

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const FIRST_SEGMENT = [
  'invoke_agent Refunds footprint.paused=true footprint.run.outcome=paused',
  '  Context',
  ...TURN_UP_TO_CHAT,
  '  ToolCalls footprint.paused=true',
  '    execute_tool lookup',
  '    execute_tool approve footprint.paused=true',
].join('\n');

async function pauseOnce(): Promise<Paused> {
  const result = await approvalAgent().run('Refund order 7');
  if (!isPaused(result)) throw new Error('expected the run to pause');
  return result.paused;
}

describe('pause', () => {
  it('ends every open span marked paused and carries the run span context', async () => {
    const paused = await pauseOnce();
    const spans = sdk.spans();
    expect(render(spans, { attrs: ['footprint.paused', 'footprint.run.outcome'] })).toBe(FIRST_SEGMENT);
    expect(sdk.unended()).toEqual([]);
    const root = spans.find((s) => s.name === 'invoke_agent Refunds')!;
    const { traceId, spanId } = root.spanContext();
    expect(paused.checkpoint.carry.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    const toolCalls = spans.find((s) => s.name === 'ToolCalls')!;
    // Runner runs attach no flow hook: the typed run.paused event is the pause (no footprint.pause).
    expect(toolCalls.events.map((e) => e.name)).toEqual(['footprint.run.paused']);
    expect(payloadOf(toolCalls.events[0])).toEqual({
      agent_id: 'refunds',
      tool_name: 'approve',
      tool_call_id: 'c2',
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'refunds',
    });
    expect(payloadOf(toolCalls.events[0]).question).toBeUndefined();
  });
});

describe('resume', () => {
  it('continues the paused trace in this process: child of the paused run span, linked to it', async () => {
    const paused = await pauseOnce();
    const pausedRoot = sdk.spans().find((s) => s.name === 'invoke_agent Refunds')!;
    sdk.reset();
    const answer = await approvalAgent().resume(JSON.parse(JSON.stringify(paused.checkpoint)), 'yes');
    expect(answer.text).toBe('Refund issued.');
    const spans = sdk.spans();
    const root = expectResumedApprovalRun(spans, pausedRoot);
    // Linked to the paused run at start; the chat span whose output is the answer is named by attributes (no link: Jaeger would reparent on it).
    const chat = spans.find((s) => s.name === 'chat m1')!;
    expect(root.links.map((link) => ({ spanId: link.context.spanId, attributes: link.attributes }))).toEqual([
      { spanId: pausedRoot.spanContext().spanId, attributes: { 'footprint.link.type': 'paused_run' } },
    ]);
    expect(root.attributes['footprint.lineage.answer.span_id']).toBe(chat.spanContext().spanId);
    expect(root.attributes['footprint.lineage.answer.producer']).toBe(chat.attributes['footprint.llm.call_id']);
    expect(root.attributes['footprint.run.id']).toBe(pausedRoot.attributes['footprint.run.id']);
    // The typed run.resumed event (on ToolCalls, below) is the resume; no flow onResume event.
    expect(root.events.map((e) => e.name)).toEqual([]);
    expect(spans.find((s) => s.name === 'ToolCalls')!.events.map((e) => e.name)).toEqual([
      'footprint.run.resumed',
      'footprint.agent.iteration_end',
    ]);
    expect(structure(spans).traceIds).toEqual([pausedRoot.spanContext().traceId]);
    expect(sdk.unended()).toEqual([]);
  });

  it('continues the paused trace in another process, from the checkpoint alone', async () => {
    const paused = await pauseOnce();
    const pausedRoot = sdk.spans().find((s) => s.name === 'invoke_agent Refunds')!;
    const output = await runChild(JSON.stringify(paused.checkpoint));
    const child = JSON.parse(output) as {
      result: string;
      unended: string[];
      spans: {
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        parentIsRemote: boolean;
        attributes: Record<string, unknown>;
        links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
      }[];
    };
    expect(child.result).toBe('Refund issued.');
    expect(child.unended).toEqual([]);
    const { traceId, spanId } = pausedRoot.spanContext();
    expect(new Set(child.spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
    const root = child.spans.find((s) => s.name === 'invoke_agent Refunds')!;
    expect(root.parentSpanId).toBe(spanId);
    expect(root.parentIsRemote).toBe(true);
    const chat = child.spans.find((s) => s.name === 'chat m1')!;
    expect(root.links).toEqual([{ traceId, spanId, attributes: { 'footprint.link.type': 'paused_run' } }]);
    // The resumed run span: the paused run's id, the resumed segment's own counts, an exact attribute set.
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Refunds',
      'gen_ai.request.model': 'm1',
      'gen_ai.usage.input_tokens': 200,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.response.finish_reasons': ['stop'],
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'refunds',
      'footprint.runner.kind': 'agent',
      'footprint.runner.id': 'refunds',
      'footprint.run.id': pausedRoot.attributes['footprint.run.id'],
      'footprint.run.outcome': 'ok',
      'footprint.resumed': true,
      'footprint.turn.outcome': 'ok',
      'footprint.llm.calls': 1,
      'footprint.iterations': 2,
      'footprint.tokens.input': 100,
      'footprint.tokens.output': 20,
      'footprint.cost.usd': expect.closeTo(CALL_COST, 12),
      'footprint.lineage.answer.span_id': chat.spanId,
      'footprint.lineage.answer.producer': chat.attributes['footprint.llm.call_id'],
    });
    const ids = new Set(child.spans.map((s) => s.spanId));
    for (const span of child.spans) if (span !== root) expect(ids.has(span.parentSpanId!)).toBe(true);
    expect(child.spans.map((s) => s.name).sort()).toEqual(
      ['invoke_agent Refunds', 'ToolCalls', 'execute_tool approve', 'CallLLM', 'chat m1', 'Final'].sort(),
    );
  }, 60_000);
});

/** Resumes `checkpoint` on an approval agent in a child process (test/fixtures/resumeInChild.ts). */
function runChild(checkpoint: string, env: Record<string, string> = {}): Promise<string> {
  const cwd = fileURLToPath(new URL('../..', import.meta.url));
  const file = join(scratch(), 'checkpoint.json');
  writeFileSync(file, checkpoint);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [compiled('test/fixtures/resumeInChild.ts'), 'approval', file, 'yes'], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`child exited ${code}: ${stderr}`))));
  });
}

describe('lineage across the pause', () => {
  it.each(['full', 'semantic'] as const)('a run resumed in another process links to the spans before the pause: its chat span, its tool spans, the reply that asked (%s detail)', async (detail) => {
    // This detail for the pause (it takes the place of the file's tracing instrument: these tests come last).
    const unregister = registerInstrument(tracingInstrument({ detail }));
    const paused = await pauseOnce().finally(unregister);
    const before = sdk.spans();
    const child = JSON.parse(await runChild(JSON.stringify(paused.checkpoint), { [DETAIL_ENV]: detail })) as {
      spans: { name: string; traceId: string; spanId: string; attributes: Record<string, unknown>; links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[] }[];
    };
    const name = new Map([...before.map((s) => [s.spanContext().spanId, `paused: ${s.name}`] as const), ...child.spans.map((s) => [s.spanId, `resumed: ${s.name}`] as const)]);
    const firstCall = before.find((s) => s.name === 'chat m1')!.attributes['footprint.llm.call_id'] as string;
    const secondCall = child.spans.find((s) => s.name === 'chat m1')!.attributes['footprint.llm.call_id'] as string;
    const linked = child.spans.filter((s) => s.links.length > 0).map((s) => ({ span: s.name, links: s.links.map((link) => ({ to: name.get(link.spanId), traceId: link.traceId, attributes: link.attributes })) }));
    const traceId = before[0]!.spanContext().traceId;
    const informedBy = (origin: string, index: number, chars: number, producer: string) => ({
      'gen_ai.attribution.link_type': 'INFORMED_BY',
      'footprint.lineage.origin': origin,
      'footprint.lineage.slot': 'messages',
      'footprint.lineage.part_indexes': [index],
      'footprint.lineage.chars': chars,
      'footprint.lineage.tokens': Math.ceil(chars / 4),
      'footprint.lineage.producer': producer,
    });
    expect(linked).toEqual([
      // The approval resumes: still caused by the reply before the pause (the checkpoint carried it).
      { span: 'execute_tool approve', links: [{ to: 'paused: chat m1', traceId, attributes: { 'gen_ai.attribution.link_type': 'CAUSED_BY_GENERATION', 'footprint.lineage.producer': firstCall } }] },
      {
        span: 'chat m1',
        links: [
          // The reply restored from the checkpoint (lookup + approve: 17 chars); the tool results were appended after the resume.
          { to: 'paused: chat m1', traceId, attributes: informedBy('checkpoint', 1, 17, firstCall) },
          { to: 'paused: execute_tool lookup', traceId, attributes: informedBy('tool_result', 2, 7, `${firstCall}:c1`) },
          { to: 'resumed: execute_tool approve', traceId, attributes: informedBy('tool_result', 3, 13, `${firstCall}:c2`) },
        ],
      },
      { span: 'invoke_agent Refunds', links: [{ to: 'paused: invoke_agent Refunds', traceId, attributes: { 'footprint.link.type': 'paused_run' } }] },
    ]);
    // The resumed run span names its answer's chat span (the resumed one) by attributes.
    const resumedRoot = child.spans.find((s) => s.name === 'invoke_agent Refunds')!;
    expect([name.get(resumedRoot.attributes['footprint.lineage.answer.span_id'] as string), resumedRoot.attributes['footprint.lineage.answer.producer']]).toEqual(['resumed: chat m1', secondCall]);
  }, 60_000);
});
