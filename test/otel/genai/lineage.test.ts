/**
 * The lineage links of a traced run, fed the contract's typed events by hand (docs/lineage.md): an
 * agent with tools over three iterations and a skill hop, written down from the scenario; the link
 * budget and the part arrays' bound; a pause carried into a run of a fresh SDK (another process's
 * view: only the checkpoint's JSON crosses); a stored conversation's carry giving the next run's chat
 * span links into the earlier trace; untrusted carries. Real SDK, InMemorySpanExporter.
 */
import { ROOT_CONTEXT, type Link } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor, type ReadableSpan, type Sampler } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { EventPayloads, EventType, InputPart, MemberRef, TypedEvent } from '../../../src/events/index.js';
import { knownProducers, type CarriedBy, type KnownProducers } from '../../../src/otel/genai/index.js';
import type { TraceDetail } from '../../../src/otel/placement/index.js';
import { TracedRun } from '../../../src/otel/wiring/tracedRun.js';

const SUPPORT: MemberRef = { kind: 'agent', id: 'support' };
const BRAIN = { via: 'default' as const, provider: 'openai', model: 'm1' };

/** One traced run over its own SDK, fed typed events of the agent `support`. */
function tracedRun(options: { detail?: TraceDetail; runId?: string; linkLimit?: number; known?: KnownProducers; restored?: CarriedBy[]; sampler?: Sampler } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)], sampler: options.sampler });
  const resolved = { tracer: provider.getTracer('test'), detail: options.detail ?? 'semantic', capture: false, semconv: 'current' as const, linkLimit: options.linkLimit ?? 128 };
  const runId = options.runId ?? 'run_1';
  const traced = new TracedRun({ source: 'runner', resolved, name: 'invoke_agent Support', attributes: {}, parent: ROOT_CONTEXT, runId, known: options.known, restored: options.restored });
  let time = 1_000;
  const send = <K extends EventType>(type: K, payload: EventPayloads[K]) => {
    const meta = { runId, runtimeStageId: `call-llm#${time}`, timestamp: ++time, member: SUPPORT, compositionPath: [], route: '', subflowPath: [] };
    traced.onEvent({ type, payload, meta } as TypedEvent);
  };
  return { traced, send, spans: () => exporter.getFinishedSpans() };
}

type Send = ReturnType<typeof tracedRun>['send'];

const part = (slot: InputPart['slot'], index: number, role: InputPart['role'], origin: InputPart['origin'], producer: InputPart['producer'], chars: number, extra: Partial<InputPart> = {}): InputPart => ({
  slot,
  index,
  role,
  origin,
  producer,
  chars,
  tokens: Math.ceil(chars / 4),
  ...extra,
});
const instructions = part('system', 0, 'system', 'instructions', { kind: 'member', id: 'support' }, 40);
const skillBody = part('system', 1, 'system', 'skill', { kind: 'hop', id: 'hop_1' }, 80);
const runInput = part('messages', 0, 'user', 'run_input', { kind: 'run', id: 'run_1' }, 12);
const toolList = part('tools', 0, 'system', 'tool_definitions', { kind: 'member', id: 'support' }, 300);
const reply = (index: number, callId: string) => part('messages', index, 'assistant', 'model_output', { kind: 'model_call', id: callId }, 20);
const toolResult = (index: number, id: string, chars = 30, extra: Partial<InputPart> = {}) => part('messages', index, 'tool', 'tool_result', { kind: 'tool_call', id }, chars, extra);

function llmStart(send: Send, callId: string, iteration: number, parts: InputPart[], extra: Partial<EventPayloads['footprint.call.llm_start']> = {}) {
  send('footprint.call.llm_start', { callId, agentId: 'support', iteration, operation: 'chat', provider: 'openai', model: 'm1', brain: BRAIN, messageCount: parts.length, toolCount: 1, messages: [], stream: false, parts, ...extra });
}
function llmEnd(send: Send, callId: string, iteration: number, toolCalls: string[], content = '', extra: Partial<EventPayloads['footprint.call.llm_end']> = {}) {
  send('footprint.call.llm_end', {
    callId,
    agentId: 'support',
    turnId: 'turn_1',
    iteration,
    operation: 'chat',
    provider: 'openai',
    model: 'm1',
    brain: BRAIN,
    usage: { input: 10, output: 5 },
    cost: { usd: 0, priced: false },
    stopReason: toolCalls.length > 0 ? 'tool_use' : 'stop',
    durationMs: 1,
    toolCalls: toolCalls.map((id) => ({ id, name: 'lookup' })),
    content,
    ...extra,
  });
}
function tool(send: Send, iteration: number, toolCallId: string) {
  send('footprint.call.tool_start', { agentId: 'support', iteration, toolCallId, toolName: 'lookup', parallelCount: 1, args: {} });
  send('footprint.call.tool_end', { agentId: 'support', iteration, toolCallId, toolName: 'lookup', status: 'ok', durationMs: 1, result: 'r' });
}

/**
 * The scenario: the skill `triage` entered by hop_1; call_1 asks for tools t1 and t2; call_2 (which
 * reads both results) asks for t1 again (a tool call id is unique only within its reply); call_3
 * reads everything and answers "done".
 */
function threeIterations(send: Send) {
  send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: true });
  send('footprint.skill.hop', { hopId: 'hop_1', agentId: 'support', turnId: 'turn_1', iteration: 1, to: 'triage', cause: 'entry' });
  llmStart(send, 'call_1', 1, [instructions, skillBody, runInput, toolList]);
  llmEnd(send, 'call_1', 1, ['t1', 't2']);
  tool(send, 1, 't1');
  tool(send, 1, 't2');
  const second = [instructions, skillBody, runInput, reply(1, 'call_1'), toolResult(2, 'call_1:t1', 30, { fingerprint: 'fpA' }), toolResult(3, 'call_1:t2', 50), toolList];
  llmStart(send, 'call_2', 2, second);
  llmEnd(send, 'call_2', 2, ['t1']);
  tool(send, 2, 't1');
  llmStart(send, 'call_3', 3, [...second.slice(0, 6), reply(4, 'call_2'), toolResult(5, 'call_2:t1', 70), toolList]);
  llmEnd(send, 'call_3', 3, [], 'done');
  send('footprint.agent.turn_end', { agentId: 'support', outcome: 'ok', iterations: 3, tokens: { input: 30, output: 15 }, costUsd: 0, llmCalls: 3, answer: 'done' });
}

/** A link as the test writes it down: the target span's name and id, and the link's whole attribute map. */
function linksOf(span: ReadableSpan, spans: readonly ReadableSpan[]) {
  return span.links.map((link: Link) => ({ to: nameOf(link, spans), attributes: link.attributes }));
}
function nameOf(link: Link, spans: readonly ReadableSpan[]): string {
  const target = spans.find((s) => s.spanContext().spanId === link.context.spanId && s.spanContext().traceId === link.context.traceId);
  if (!target) return `(not here) ${link.context.spanId}`;
  const id = target.attributes['footprint.llm.call_id'] ?? target.attributes['gen_ai.tool.call.id'] ?? target.attributes['footprint.member.id'];
  return `${target.name} ${String(id)}`;
}
const chat = (spans: readonly ReadableSpan[], callId: string) => spans.find((s) => s.attributes['footprint.llm.call_id'] === callId)!;

const informedBy = (origin: string, slot: string, indexes: number[], chars: number, producer: string, extra: Record<string, unknown> = {}) => ({
  'gen_ai.attribution.link_type': 'INFORMED_BY',
  'footprint.lineage.origin': origin,
  'footprint.lineage.slot': slot,
  'footprint.lineage.part_indexes': indexes,
  'footprint.lineage.chars': chars,
  'footprint.lineage.tokens': Math.ceil(chars / 4),
  'footprint.lineage.producer': producer,
  ...extra,
});
const causedBy = (callId: string) => ({ 'gen_ai.attribution.link_type': 'CAUSED_BY_GENERATION', 'footprint.lineage.producer': callId });

describe('an agent with tools over three iterations, a skill hop (semantic detail: the hop is emitted on the chat spans\' own parent, the invoke_agent span)', () => {
  it('gives every chat, execute_tool and run span exactly its links', () => {
    const { traced, send, spans } = tracedRun();
    threeIterations(send);
    traced.finish({ status: 'ok', output: 'done', answeredBy: 'call_3' });
    const all = spans();
    // The hop's span is each chat span's parent: no link (Jaeger would turn the parent into a follows-from); the part table names the hop.
    expect(linksOf(chat(all, 'call_1'), all)).toEqual([]);
    expect((chat(all, 'call_1').attributes['footprint.lineage.part.producers'] as string[])[1]).toBe('hop_1');
    expect(linksOf(chat(all, 'call_2'), all)).toEqual([
      { to: 'chat m1 call_1', attributes: informedBy('model_output', 'messages', [1], 20, 'call_1') },
      { to: 'execute_tool lookup t1', attributes: informedBy('tool_result', 'messages', [2], 30, 'call_1:t1', { 'footprint.lineage.fingerprints': ['fpA'] }) },
      { to: 'execute_tool lookup t2', attributes: informedBy('tool_result', 'messages', [3], 50, 'call_1:t2') },
    ]);
    const third = linksOf(chat(all, 'call_3'), all);
    expect(third).toEqual([
      { to: 'execute_tool lookup t1', attributes: informedBy('tool_result', 'messages', [2], 30, 'call_1:t1', { 'footprint.lineage.fingerprints': ['fpA'] }) },
      { to: 'execute_tool lookup t2', attributes: informedBy('tool_result', 'messages', [3], 50, 'call_1:t2') },
      // Only the newest earlier answer: call_1's is reachable through call_2's own link.
      { to: 'chat m1 call_2', attributes: informedBy('model_output', 'messages', [4], 20, 'call_2') },
      { to: 'execute_tool lookup t1', attributes: informedBy('tool_result', 'messages', [5], 70, 'call_2:t1') },
    ]);
    // The two t1 calls are two spans: the third call links to each of them.
    expect(chat(all, 'call_3').links[0]!.context.spanId).not.toBe(chat(all, 'call_3').links[3]!.context.spanId);
    const tools = all.filter((s) => s.name === 'execute_tool lookup');
    expect(tools.map((s) => linksOf(s, all))).toEqual([
      [{ to: 'chat m1 call_1', attributes: causedBy('call_1') }],
      [{ to: 'chat m1 call_1', attributes: causedBy('call_1') }],
      [{ to: 'chat m1 call_2', attributes: causedBy('call_2') }],
    ]);
    const root = all.find((s) => s.name === 'invoke_agent Support' && s.parentSpanContext === undefined)!;
    // The answer is named by attributes, not a link: a same-trace link on a root span becomes its parent in Jaeger.
    expect(root.links).toEqual([]);
    expect(root.attributes['footprint.lineage.answer.span_id']).toBe(chat(all, 'call_3').spanContext().spanId);
    expect(root.attributes['footprint.lineage.answer.producer']).toBe('call_3');
  });

  it('gives the links at span start: a sampler sees them', () => {
    const seen: [string, string[]][] = [];
    const sampler: Sampler = {
      shouldSample: (_context, _traceId, name, _kind, _attributes, links) => {
        seen.push([name, links.map((link) => String(link.attributes?.['footprint.lineage.producer']))]);
        return { decision: SamplingDecision.RECORD_AND_SAMPLED };
      },
      toString: () => 'recording',
    };
    const { traced, send } = tracedRun({ sampler });
    threeIterations(send);
    traced.finish({ status: 'ok', output: 'done' });
    expect(seen.filter(([name]) => name !== 'invoke_agent Support')).toEqual([
      ['chat m1', []],
      ['execute_tool lookup', ['call_1']],
      ['execute_tool lookup', ['call_1']],
      ['chat m1', ['call_1', 'call_1:t1', 'call_1:t2']],
      ['execute_tool lookup', ['call_2']],
      ['chat m1', ['call_1:t1', 'call_1:t2', 'call_2', 'call_2:t1']],
    ]);
  });

  it('puts the part table on each chat span as parallel arrays, in the order sent, after the parts it shares with its agent\'s call before', () => {
    const { traced, send, spans } = tracedRun();
    threeIterations(send);
    traced.finish({ status: 'ok', output: 'done' });
    const all = spans();
    const table = (callId: string) => {
      const a = chat(all, callId).attributes;
      return [a['footprint.lineage.part.origins'], a['footprint.lineage.part.producers'], a['footprint.lineage.part.tokens'], a['footprint.lineage.shared.parts'], a['footprint.lineage.shared.span_id']];
    };
    const spanId = (callId: string) => chat(all, callId).spanContext().spanId;
    // The first call lists every part; the second sends the first's instructions, skill and input again (the very same parts): it lists what follows.
    expect(table('call_1')).toEqual([['instructions', 'skill', 'run_input', 'tool_definitions'], ['support', 'hop_1', 'run_1', 'support'], [10, 20, 3, 75], undefined, undefined]);
    expect(table('call_2')).toEqual([['model_output', 'tool_result', 'tool_result', 'tool_definitions'], ['call_1', 'call_1:t1', 'call_1:t2', 'support'], [5, 8, 13, 75], 3, spanId('call_1')]);
    expect(table('call_3')).toEqual([['model_output', 'tool_result', 'tool_definitions'], ['call_2', 'call_2:t1', 'support'], [5, 18, 75], 6, spanId('call_2')]);
    for (const callId of ['call_1', 'call_2', 'call_3']) {
      const a = chat(all, callId).attributes;
      expect([a['footprint.lineage.links_folded'], a['footprint.lineage.parts_folded']]).toEqual([undefined, undefined]);
    }
  });

  it('a call after one whose span was sampled out lists every part: that span has no table to share', () => {
    // Drops the chat span of the call asked for the tool results (call_2: the one started with links to them).
    const sampler: Sampler = {
      shouldSample: (_context, _traceId, name, _kind, _attributes, links) => ({
        decision: name === 'chat m1' && links.length === 3 ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
      }),
      toString: () => 'drops call_2',
    };
    const { traced, send, spans } = tracedRun({ sampler });
    threeIterations(send);
    traced.finish({ status: 'ok', output: 'done' });
    const all = spans();
    expect(all.filter((s) => s.name === 'chat m1').map((s) => s.attributes['footprint.llm.call_id'])).toEqual(['call_1', 'call_3']);
    const third = chat(all, 'call_3').attributes;
    expect([third['footprint.lineage.shared.parts'], third['footprint.lineage.part.origins']]).toEqual([
      undefined,
      ['instructions', 'skill', 'run_input', 'model_output', 'tool_result', 'tool_result', 'model_output', 'tool_result', 'tool_definitions'],
    ]);
  });

  it('shares parts only with the same agent\'s call before, and only the same parts in the same places', () => {
    const { traced, send, spans } = tracedRun();
    send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: false });
    llmStart(send, 'call_1', 1, [instructions, runInput, toolList]);
    llmEnd(send, 'call_1', 1, [], 'done');
    // Another agent sent the very same parts: its table is its own.
    send('footprint.agent.turn_start', { agentId: 'billing', name: 'Billing', provider: 'openai', model: 'm1', turnId: 'turn_2', message: 'hi', skillGraph: false });
    llmStart(send, 'call_2', 1, [instructions, runInput, toolList], { agentId: 'billing' });
    llmEnd(send, 'call_2', 1, [], 'done', { agentId: 'billing', turnId: 'turn_2' });
    // The first agent again, its input made again (equal, not the same part): only the instructions are shared.
    llmStart(send, 'call_3', 1, [instructions, { ...runInput }, toolList]);
    llmEnd(send, 'call_3', 1, [], 'done');
    traced.finish({ status: 'ok', output: 'done' });
    const all = spans();
    const shared = (callId: string) => [chat(all, callId).attributes['footprint.lineage.shared.parts'], chat(all, callId).attributes['footprint.lineage.part.origins']];
    expect(shared('call_2')).toEqual([undefined, ['instructions', 'run_input', 'tool_definitions']]);
    expect(shared('call_3')).toEqual([1, ['run_input', 'tool_definitions']]);
    expect(chat(all, 'call_3').attributes['footprint.lineage.shared.span_id']).toBe(chat(all, 'call_1').spanContext().spanId);
  });

  it('links no ancestor: the instructions, the run input and the tool list have no link', () => {
    const { traced, send, spans } = tracedRun();
    send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: false });
    llmStart(send, 'call_1', 1, [instructions, runInput, toolList]);
    llmEnd(send, 'call_1', 1, [], 'done');
    traced.finish({ status: 'ok', output: 'done' });
    expect(chat(spans(), 'call_1').links).toEqual([]);
  });

  it('a fallback call keeps its lineage links and adds RETRY_OF last', () => {
    const { traced, send, spans } = tracedRun();
    send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: true });
    send('footprint.skill.hop', { hopId: 'hop_1', agentId: 'support', turnId: 'turn_1', iteration: 1, to: 'triage', cause: 'entry' });
    llmStart(send, 'call_1', 1, [instructions, skillBody, runInput]);
    send('footprint.call.llm_end', {
      callId: 'call_1', agentId: 'support', turnId: 'turn_1', iteration: 1, operation: 'chat', provider: 'openai', model: 'm1', brain: BRAIN,
      cost: { usd: 0, priced: false }, durationMs: 1, toolCalls: [], content: '', error: { type: '503', message: 'down', name: 'ProviderError' },
    });
    llmStart(send, 'call_2', 1, [instructions, skillBody, runInput], { fallbackFrom: { callId: 'call_1', provider: 'openai', model: 'm1' } });
    llmEnd(send, 'call_2', 1, [], 'done');
    traced.finish({ status: 'ok', output: 'done' });
    const all = spans();
    expect(linksOf(chat(all, 'call_2'), all)).toEqual([
      { to: 'chat m1 call_1', attributes: { 'gen_ai.attribution.link_type': 'RETRY_OF' } },
    ]);
  });
});

describe('the link limit', () => {
  it('OTEL_SPAN_LINK_COUNT_LIMIT less one: the newest producers win, the rest counted in links_folded', () => {
    const { traced, send, spans } = tracedRun({ linkLimit: 3 });
    threeIterations(send);
    traced.finish({ status: 'ok', output: 'done' });
    const all = spans();
    const third = chat(all, 'call_3');
    expect(linksOf(third, all).map((link) => link.attributes!['footprint.lineage.producer'])).toEqual(['call_2', 'call_2:t1']);
    expect(third.attributes['footprint.lineage.links_folded']).toBe(2);
    expect(chat(all, 'call_2').attributes['footprint.lineage.links_folded']).toBe(1);
    expect(chat(all, 'call_1').attributes['footprint.lineage.links_folded']).toBeUndefined();
  });

  it('the part arrays hold the newest 128 parts and say how many were left out', () => {
    const { traced, send, spans } = tracedRun();
    send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: false });
    const many = Array.from({ length: 130 }, (_, i) => toolResult(i, `call_0:t${i}`));
    llmStart(send, 'call_1', 1, many);
    llmEnd(send, 'call_1', 1, [], 'done');
    traced.finish({ status: 'ok', output: 'done' });
    const attributes = chat(spans(), 'call_1').attributes;
    const producers = attributes['footprint.lineage.part.producers'] as string[];
    expect([producers.length, producers[0], producers[127], attributes['footprint.lineage.parts_folded']]).toEqual([128, 'call_0:t2', 'call_0:t129', 2]);
    // Producers that no span of the run stands for get no link (and are not counted as folded).
    expect([chat(spans(), 'call_1').links, attributes['footprint.lineage.links_folded']]).toEqual([[], undefined]);
  });

  it('a call that shares parts holds the newest 128 of the rest; parts_folded counts those between the two', () => {
    const { traced, send, spans } = tracedRun();
    send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: false });
    llmStart(send, 'call_1', 1, [instructions, runInput]);
    llmEnd(send, 'call_1', 1, [], 'done');
    const many = Array.from({ length: 130 }, (_, i) => toolResult(i + 1, `call_0:t${i}`));
    llmStart(send, 'call_2', 2, [instructions, runInput, ...many]);
    llmEnd(send, 'call_2', 2, [], 'done');
    traced.finish({ status: 'ok', output: 'done' });
    const attributes = chat(spans(), 'call_2').attributes;
    const producers = attributes['footprint.lineage.part.producers'] as string[];
    expect([attributes['footprint.lineage.shared.parts'], producers.length, producers[0], producers[127], attributes['footprint.lineage.parts_folded']]).toEqual([2, 128, 'call_0:t2', 'call_0:t129', 2]);
  });
});

describe('across a pause', () => {
  it('a resumed run (fresh SDK, the checkpoint JSON alone) links its restored parts to the spans before the pause', () => {
    const before = tracedRun({ detail: 'full' });
    before.send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: true });
    before.send('footprint.skill.hop', { hopId: 'hop_1', agentId: 'support', turnId: 'turn_1', iteration: 1, to: 'triage', cause: 'entry' });
    llmStart(before.send, 'call_1', 1, [instructions, skillBody, runInput]);
    llmEnd(before.send, 'call_1', 1, ['t1']);
    before.send('footprint.call.tool_start', { agentId: 'support', iteration: 1, toolCallId: 't1', toolName: 'approve', parallelCount: 1, args: {} });
    const checkpoint = JSON.parse(JSON.stringify(before.traced.carry())) as Record<string, unknown>;
    before.traced.finish({ status: 'paused' });
    const paused = before.spans();
    const pausedChat = chat(paused, 'call_1').spanContext();
    const pausedTool = paused.find((s) => s.name === 'execute_tool approve')!.spanContext();
    // The top-level agent's span is the run span in full detail.
    const pausedAgent = paused.find((s) => s.name === 'invoke_agent Support')!.spanContext();

    const after = tracedRun({ detail: 'full', known: knownProducers([{ carry: checkpoint }]) });
    const restored = (p: InputPart): InputPart => ({ ...p, origin: 'checkpoint', restoredFrom: p.origin as Exclude<InputPart['origin'], 'checkpoint' | 'conversation'>, producer: { ...p.producer, runId: 'run_1' } });
    after.send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_1', message: 'hi', skillGraph: true });
    llmStart(after.send, 'call_2', 2, [instructions, skillBody, restored(runInput), restored(reply(1, 'call_1')), restored(toolResult(2, 'call_1:t1'))]);
    llmEnd(after.send, 'call_2', 2, [], 'done');
    after.traced.finish({ status: 'ok', output: 'done' });
    const links = chat(after.spans(), 'call_2').links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId, attributes: link.attributes }));
    expect(links).toEqual([
      // Full detail, but no stage span was open at the hop: its agent's span stood in, and still does.
      { traceId: pausedAgent.traceId, spanId: pausedAgent.spanId, attributes: informedBy('skill', 'system', [1], 80, 'hop_1', { 'footprint.lineage.hop': 'hop_1' }) },
      { traceId: pausedChat.traceId, spanId: pausedChat.spanId, attributes: informedBy('checkpoint', 'messages', [1], 20, 'call_1') },
      { traceId: pausedTool.traceId, spanId: pausedTool.spanId, attributes: informedBy('checkpoint', 'messages', [2], 30, 'call_1:t1') },
    ]);
  });
});

describe('a stored conversation', () => {
  it("the next run's chat span links into the earlier run's trace: its spans when the carry has them, else its run span", () => {
    const earlier = tracedRun({ runId: 'run_0' });
    threeIterations(earlier.send);
    const stored = JSON.parse(JSON.stringify(earlier.traced.lineageCarry())) as Record<string, unknown>;
    earlier.traced.finish({ status: 'ok', output: 'done' });
    const old = earlier.spans();
    const oldRoot = old.find((s) => s.parentSpanContext === undefined)!.spanContext();
    const oldAnswer = chat(old, 'call_3').spanContext();

    // As RunStart.restored: filled when the thread loads, after the run started.
    const restored: CarriedBy[] = [];
    const next = tracedRun({ runId: 'run_2', restored });
    restored.push({ runId: 'run_0', carry: stored });
    const fromConversation = (index: number, role: InputPart['role'], restoredFrom: InputPart['restoredFrom'], producer: InputPart['producer'], chars: number): InputPart =>
      part('messages', index, role, 'conversation', producer, chars, { restoredFrom });
    next.send('footprint.agent.turn_start', { agentId: 'support', name: 'Support', provider: 'openai', model: 'm1', turnId: 'turn_2', message: 'more', skillGraph: false });
    llmStart(next.send, 'call_9', 1, [
      instructions,
      fromConversation(0, 'user', 'run_input', { kind: 'run', id: 'run_0', runId: 'run_0' }, 12),
      fromConversation(1, 'assistant', 'model_output', { kind: 'model_call', id: 'call_3', runId: 'run_0' }, 4),
      fromConversation(2, 'tool', 'tool_result', { kind: 'tool_call', id: 'call_7:t1', runId: 'run_0' }, 8),
      part('messages', 3, 'user', 'run_input', { kind: 'run', id: 'run_2' }, 4),
    ]);
    llmEnd(next.send, 'call_9', 1, [], 'more done');
    next.traced.finish({ status: 'ok', output: 'more done' });
    const links = chat(next.spans(), 'call_9').links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId, attributes: link.attributes }));
    expect(links).toEqual([
      { traceId: oldRoot.traceId, spanId: oldRoot.spanId, attributes: informedBy('conversation', 'messages', [0], 12, 'run_0') },
      { traceId: oldAnswer.traceId, spanId: oldAnswer.spanId, attributes: informedBy('conversation', 'messages', [1], 4, 'call_3') },
      // A producer the carry does not hold: the earlier run's span.
      { traceId: oldRoot.traceId, spanId: oldRoot.spanId, attributes: informedBy('conversation', 'messages', [2], 8, 'call_7:t1') },
    ]);
    expect(new Set(links.map((link) => link.traceId))).toEqual(new Set([oldRoot.traceId]));
    expect(chat(next.spans(), 'call_9').spanContext().traceId).not.toBe(oldRoot.traceId);
  });

  it('a carry is untrusted JSON: malformed entries are dropped, the rest kept', () => {
    const good = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const known = knownProducers([
      { runId: 'run_0', carry: { 'footprint-otel.lineage': { run: 'nope', producers: { call_1: good, call_2: 'bad', ['x'.repeat(300)]: good }, hops: 'no' } } },
      { runId: 'run_1', carry: { 'footprint-otel.lineage': 7 } },
      { carry: {} },
    ]);
    expect([[...known.producers.keys()], [...known.runs.keys()], [...known.replies.keys()]]).toEqual([['call_1'], [], []]);
    const replies = knownProducers([{ carry: { 'footprint-otel.lineage': { replies: { a: { callId: 'call_1', toolCallIds: ['t1', 7, 't2'] }, b: { callId: 3 }, c: 'x' } } } }]).replies;
    expect([...replies]).toEqual([['a', { callId: 'call_1', toolCallIds: [{ id: 't1' }, { id: 't2' }] }]]);
  });
});
