/**
 * The span mapping without a runtime: synthetic typed events fed straight to the typed-event table
 * (genai/eventSpans.ts) over each runner layout, into the real SDK. Shows what one table entry does:
 * members open and close their spans, a model call becomes a chat span under its member, a failed
 * Parallel branch fails its member, and the run roll-ups collect tokens, cost and the skill path.
 */
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { EventPayloads, EventType, MemberRef, TypedEvent } from '../../../src/events/index.js';
import { EventSpans, RunLineage, RunRollups } from '../../../src/otel/genai/index.js';
import { RunSpans, runnerLayout, type TraceDetail } from '../../../src/otel/placement/index.js';
import { WITHHELD_MESSAGE } from '../../../src/events/index.js';
import { render } from '../../support/traceTree.js';

const DESK: MemberRef = { kind: 'swarm', id: 'desk' };
const BILLING: MemberRef = { kind: 'agent', id: 'billing' };

/** A run's span mapping over the layout of `detail`, fed by hand; `finish` ends the run span. */
function mapping(detail: TraceDetail) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const run = new RunSpans({ tracer: provider.getTracer('test'), base: ROOT_CONTEXT, name: 'run', start: { startTime: 1_000 } });
  const rollups = new RunRollups(run.root.span);
  const layout = runnerLayout({ detail, run, carried: {} });
  const spans = new EventSpans({ run, layout, rollups, lineage: new RunLineage({ linkLimit: 128 }), capture: false, semconv: 'current' });
  let time = 1_000;
  const send = <K extends EventType>(type: K, payload: EventPayloads[K], at: { member: MemberRef; path: string[]; stage: string }) => {
    const event: TypedEvent<K> = {
      type,
      payload,
      meta: { runId: 'run-1', runtimeStageId: at.stage, timestamp: ++time, member: at.member, compositionPath: [], route: at.path.length > 0 ? 'desk>billing' : '', subflowPath: at.path },
    };
    spans.onEvent(event as TypedEvent);
  };
  const finish = () => {
    run.root.span.setAttributes(rollups.attributes());
    run.endOpen(++time);
    run.root.span.end(++time);
    return exporter.getFinishedSpans();
  };
  return { send, finish };
}

const atDesk = { member: DESK, path: [], stage: 'route#1' };
const atBilling = { member: BILLING, path: ['billing'], stage: 'billing/call-llm#3' };
const usage = { input: 100, output: 20 };

function oneTurn(send: ReturnType<typeof mapping>['send']) {
  send('footprint.composition.enter', { compositionId: 'desk', kind: 'swarm', childCount: 1 }, atDesk);
  send('footprint.composition.route_decided', { compositionId: 'desk', kind: 'swarm', chosen: 'billing', rationale: 'r', matched: 'pick_fn', inRoster: true }, atDesk);
  send('footprint.agent.turn_start', { agentId: 'billing', name: 'Billing', provider: 'openai', model: 'm1', turnId: 't1', message: 'hi', skillGraph: false }, atBilling);
  send('footprint.call.llm_start', { callId: 'c1', agentId: 'billing', iteration: 1, operation: 'chat', provider: 'openai', model: 'm1', brain: { via: 'default', provider: 'openai', model: 'm1' }, messageCount: 1, toolCount: 0, messages: [], stream: false, parts: [] }, atBilling);
  send(
    'footprint.call.llm_end',
    { callId: 'c1', agentId: 'billing', turnId: 't1', iteration: 1, operation: 'chat', provider: 'openai', model: 'm1', brain: { via: 'default', provider: 'openai', model: 'm1' }, usage, cost: { usd: 0.25, priced: true }, stopReason: 'stop', durationMs: 5, toolCalls: [], content: 'ok' },
    atBilling,
  );
  send('footprint.agent.turn_end', { agentId: 'billing', outcome: 'ok', iterations: 1, tokens: usage, costUsd: 0.25, llmCalls: 1, answer: 'ok' }, atBilling);
  send('footprint.composition.exit', { compositionId: 'desk', kind: 'swarm', status: 'ok', durationMs: 9 }, atDesk);
}

describe('the typed-event table over the semantic layout', () => {
  it('opens the member span at turn_start, puts the chat span under it, closes it at turn_end', () => {
    const { send, finish } = mapping('semantic');
    oneTurn(send);
    const spans = finish();
    expect(render(spans)).toBe(['invoke_workflow desk', '  invoke_agent Billing', '    chat m1 [CLIENT]'].join('\n'));
    const agent = spans.find((s) => s.name === 'invoke_agent Billing')!;
    expect(agent.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Billing',
      'gen_ai.request.model': 'm1',
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'billing',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.response.finish_reasons': ['stop'],
      'footprint.cost.usd': 0.25,
      'footprint.llm.calls': 1,
      'footprint.iterations': 1,
      'footprint.turn.outcome': 'ok',
    });
    // turn_start is recorded on the span it opened; turn_end on the span it closes.
    expect(agent.events.map((e) => e.name)).toEqual(['footprint.agent.turn_start', 'footprint.agent.turn_end']);
    const root = spans.find((s) => s.name === 'invoke_workflow desk')!;
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'desk',
      'footprint.member.kind': 'swarm',
      'footprint.member.id': 'desk',
      'footprint.composition.kind': 'swarm',
      'footprint.composition.status': 'ok',
      'footprint.tokens.input': 100,
      'footprint.tokens.output': 20,
      'footprint.cost.usd': 0.25,
      'footprint.llm.calls': 1,
      'footprint.skill.path': 'billing',
    });
  });

  it('gives chat and execute_tool spans exactly their attribute sets', () => {
    const { send, finish } = mapping('semantic');
    oneTurn(send);
    send('footprint.call.tool_start', { agentId: 'billing', iteration: 1, toolCallId: 'call-1', toolName: 'lookup', parallelCount: 1, args: { id: 7 } }, atBilling);
    send('footprint.call.tool_end', { agentId: 'billing', iteration: 1, toolCallId: 'call-1', toolName: 'lookup', status: 'error', durationMs: 3, result: 'boom', error: { type: 'TypeError', message: 'boom' } }, atBilling);
    const spans = finish();
    expect(spans.find((s) => s.name === 'chat m1')!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'm1',
      'footprint.agent': 'billing',
      'footprint.llm.call_id': 'c1',
      'footprint.iteration': 1,
      'footprint.brain': 'default',
      'footprint.route': 'desk>billing',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.response.finish_reasons': ['stop'],
      'footprint.cost.usd': 0.25,
      'footprint.cost.priced': true,
      // The event lists no parts: the part table is there, empty.
      'footprint.lineage.part.origins': [],
      'footprint.lineage.part.producers': [],
      'footprint.lineage.part.tokens': [],
    });
    const tool = spans.find((s) => s.name === 'execute_tool lookup')!;
    expect(tool.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call-1',
      'gen_ai.tool.type': 'function',
      'footprint.agent': 'billing',
      'footprint.iteration': 1,
      'footprint.tool.parallel_count': 1,
      'footprint.tool.status': 'error',
      'error.type': 'TypeError',
    });
    // a tool's thrown text is content: without capture the span shows a fixed description
    expect([tool.status.code, tool.status.message, tool.events.map((e) => e.name)]).toEqual([2, WITHHELD_MESSAGE, ['exception']]);
  });

  it("fails a Parallel branch's member span at its failed branch_end", () => {
    const { send, finish } = mapping('semantic');
    send('footprint.composition.enter', { compositionId: 'both', kind: 'parallel', childCount: 1 }, atDesk);
    send('footprint.agent.turn_start', { agentId: 'billing', name: 'Billing', provider: 'openai', model: 'm1', turnId: 't1', message: 'hi', skillGraph: false }, atBilling);
    send('footprint.composition.branch_end', { compositionId: 'both', branch: 'billing', status: 'error', error: { type: 'ProviderError', message: 'down', ownText: true } }, atDesk);
    const agent = finish().find((s) => s.name === 'invoke_agent Billing')!;
    expect([agent.status.code, agent.status.message]).toEqual([2, 'down']);
  });
});

describe('the typed-event table over the runner layout', () => {
  it('names the run span at composition.enter and keeps events on the member span without stage spans', () => {
    const { send, finish } = mapping('full');
    oneTurn(send);
    // No footprintjs hooks ran, so there are no stage spans: members open where their first event lands.
    expect(render(finish())).toBe(['invoke_workflow desk', '  invoke_agent Billing', '    chat m1 [CLIENT]'].join('\n'));
  });
});
