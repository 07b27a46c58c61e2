/**
 * Conformance: an Agent run and an LLMCall run are each exactly the span tree that docs/architecture.md (Spans)
 * describes, under the real SDK: names, parents, kinds, GenAI and footprint attributes, span events,
 * roll-ups on the run span, one trace, every span ended, children inside their parents' time; the
 * stage, chat and tool spans are active for the code they cover, and nothing leaks to the caller.
 */
import { SpanKind, trace } from '@opentelemetry/api';
import { FlowChartExecutor } from 'footprintjs';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { now } from '../../src/events/index.js';
import { TRACE_RECORDER_ID } from '../../src/otel/wiring/traceRecorder.js';
import { Agent, EventHub, LLMCall, MemoryConversationStore, Runner, scripted, Sequence, skillGraph } from '../../src/runtime/index.js';
import { activeSpanName, activeSpanProbe, answerAttributes, CALL_COST, CALL_USAGE, Greeter, PRICING, TURN_UP_TO_CHAT, twoToolAgent, twoToolChatAttributes, twoToolRunAttributes } from '../support/agents.js';
import { startSdk } from '../support/sdk.js';
import { answer, diagnoseSkill, pick, triageSkill } from '../support/skills.js';
import { childrenOf, render, structure, payloadOf } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const realAttach = FlowChartExecutor.prototype.attachCombinedRecorder;

/** A turn's stages up to its first model call (the chat span is CallLLM's child; later iterations start at CallLLM). */
const UP_TO_CHAT = ['Context', 'CallLLM'];

/** The documented span tree of twoToolAgent's run: three iterations, two tool rounds. */
const TWO_TOOL_TREE = [
  'invoke_agent Helper',
  ...UP_TO_CHAT.map((n) => `  ${n}`),
  '    chat m1 [CLIENT]',
  '  ToolCalls',
  '    execute_tool lookup',
  '    execute_tool weather',
  '  CallLLM',
  '    chat m1 [CLIENT]',
  '  ToolCalls',
  '    execute_tool lookup',
  '  CallLLM',
  '    chat m1 [CLIENT]',
  '  Final',
].join('\n');

describe('Agent with two tools over three iterations', () => {
  it('is exactly the documented span tree', async () => {
    const answer = await twoToolAgent().run('Is invoice 42 paid?', { conversationId: 'session-7', conversationStore: new MemoryConversationStore() });
    expect(answer.text).toBe('Invoice 42 is paid.');
    const spans = sdk.spans();
    expect(render(spans)).toBe(TWO_TOOL_TREE);
    const { traceIds, roots, problems } = structure(spans);
    expect(traceIds).toHaveLength(1);
    expect(roots).toHaveLength(1);
    expect(problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);
  });

  it('puts the GenAI and footprint attributes where the contract says', async () => {
    await twoToolAgent().run('Is invoice 42 paid?', { conversationId: 'session-7', conversationStore: new MemoryConversationStore() });
    const spans = sdk.spans();
    const root = spans.find((s) => s.name === 'invoke_agent Helper')!;
    expect(root.kind).toBe(SpanKind.INTERNAL);
    const chats = spans.filter((s) => s.name === 'chat m1');
    expect(root.attributes).toEqual(twoToolRunAttributes(chats[2]!, { sessionId: 'session-7' }));

    expect(chats.map((c) => c.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT, SpanKind.CLIENT]);
    // The chat span's exact attribute set (content capture off: no gen_ai.input.messages).
    expect(chats.map((c) => c.attributes)).toEqual(([1, 2, 3] as const).map((i) => twoToolChatAttributes(i, { sessionId: 'session-7' })));

    const tools = spans.filter((s) => s.name.startsWith('execute_tool'));
    expect(tools.map((t) => [t.name, t.attributes['gen_ai.tool.call.id'], t.attributes['footprint.tool.status']])).toEqual([
      ['execute_tool lookup', 'c1', 'ok'],
      ['execute_tool weather', 'c2', 'ok'],
      ['execute_tool lookup', 'c3', 'ok'],
    ]);
    expect(tools.map((t) => t.kind)).toEqual([SpanKind.INTERNAL, SpanKind.INTERNAL, SpanKind.INTERNAL]);
    // The execute_tool span's exact attribute set (content capture off: no gen_ai.tool.call.arguments).
    expect(tools[1]!.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.description': 'Weather in a city',
      'gen_ai.tool.call.id': 'c2',
      'footprint.agent': 'helper',
      'footprint.iteration': 1,
      'footprint.tool.parallel_count': 2,
      'footprint.tool.status': 'ok',
    });

    const callLLM = spans.find((s) => s.name === 'CallLLM')!;
    expect(callLLM.attributes).toEqual({
      'footprint.stage.id': 'call-llm',
      'footprint.stage.runtime_id': expect.stringMatching(/^call-llm#\d+$/),
    });
    const calls = spans.filter((s) => s.name === 'CallLLM');
    expect(calls.map((c) => c.attributes['footprint.stage.loop_iteration'])).toEqual([undefined, 1, 2]);
  });

  it('turns typed events into span events on the emitting stage, and decisions with their choice', async () => {
    await twoToolAgent().run('Is invoice 42 paid?');
    const spans = sdk.spans();
    expect(render(spans, { events: true }).split('\n').slice(0, 5)).toEqual([
      'invoke_agent Helper',
      '  Context <footprint.agent.turn_start>',
      '  CallLLM <footprint.agent.iteration_start footprint.agent.next_step>',
      '    chat m1 [CLIENT]',
      '  ToolCalls <footprint.agent.iteration_end>',
    ]);
    // CallLLM decides the next step: the decision is on its span, after its chat span.
    const route = spans.find((s) => s.name === 'CallLLM')!;
    const decided = route.events.find((e) => e.name === 'footprint.agent.next_step')!;
    expect(payloadOf(decided)).toEqual({
      chosen: 'tool-calls',
      rationale: 'the model asked for 2 tool call(s)',
      iteration: 1,
      agent_id: 'helper',
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'helper',
    });
    // Runner runs attach no flow hook: the typed route_decided event is the decision.
    expect(route.events.some((e) => e.name === 'footprint.decision')).toBe(false);
    const turnStart = spans.find((s) => s.name === 'Context')!.events[0];
    expect(payloadOf(turnStart)).toEqual({
      agent_id: 'helper',
      turn_id: expect.stringMatching(/^turn_[0-9a-z]+$/),
      name: 'Helper',
      provider: 'openai',
      model: 'm1',
      temperature: 0.2,
      max_tokens: 256,
      skill_graph: false,
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'helper',
    });
    expect(payloadOf(turnStart).message).toBeUndefined();
    const final = spans.find((s) => s.name === 'Final')!;
    expect(final.events.map((e) => e.name)).toEqual(['footprint.agent.iteration_end', 'footprint.agent.turn_end']);
    expect(payloadOf(final.events[1])).toEqual({
      agent_id: 'helper',
      outcome: 'ok',
      iterations: 3,
      llm_calls: 3,
      'tokens.input': 300,
      'tokens.output': 60,
      cost_usd: expect.closeTo(3 * CALL_COST, 12),
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'helper',
    });
    expect(payloadOf(final.events[1]).answer).toBeUndefined();
  });

  it('makes the stage, chat and tool spans active for the code they cover, and leaks nothing', async () => {
    const active = activeSpanName;
    const seen: string[] = [];
    const agent = activeSpanProbe(seen);
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('caller', async (caller) => {
      const pending = agent.run('hi');
      seen.push(`caller, sync: ${active()}`);
      await pending;
      seen.push(`caller, after: ${active()}`);
      caller.end(now());
    });
    expect(seen).toEqual([
      'caller, sync: caller',
      'provider: chat m1',
      'tool: execute_tool probe',
      'tool after await: execute_tool probe',
      'provider: chat m1',
      'caller, after: caller',
    ]);
    const spans = sdk.spans();
    const caller = spans.find((s) => s.name === 'caller')!;
    expect(childrenOf(spans, caller).map((s) => s.name)).toEqual(['invoke_agent Probe']);
    expect(structure(spans).traceIds).toHaveLength(1);
  });
});

describe('a skill-graph agent, iteration by iteration', () => {
  it('opens the turn on Context alone; each iteration\'s context work (hop, skill entered, iteration_start) is on its CallLLM span', async () => {
    const [triage, diagnose] = [triageSkill(), diagnoseSkill()];
    const graph = skillGraph().entry(triage).edge(triage, diagnose).build();
    const agent = Agent.create({ provider: scripted({ replies: [pick('diagnose'), answer('Fixed.')] }), model: 'm1', id: 'desk', name: 'Desk' }).skillGraph(graph).build();
    expect((await agent.run('The link flaps.')).text).toBe('Fixed.');
    const spans = sdk.spans();
    expect(render(spans, { events: true })).toBe(
      [
        'invoke_agent Desk',
        '  Context <footprint.agent.turn_start>',
        '  CallLLM <footprint.skill.hop footprint.skill.entered footprint.agent.iteration_start footprint.agent.next_step>',
        '    chat m1 [CLIENT]',
        '  ToolCalls <footprint.agent.iteration_end>',
        '    execute_tool read_skill diagnose',
        '  CallLLM <footprint.skill.hop footprint.skill.entered footprint.agent.iteration_start footprint.agent.next_step>',
        '    chat m1 [CLIENT]',
        '  Final <footprint.agent.iteration_end footprint.agent.turn_end>',
      ].join('\n'),
    );
    const hops = spans.filter((s) => s.name === 'CallLLM').map((s) => payloadOf(s.events[0]));
    expect(hops.map((h) => [h.from, h.to, h.cause, h.iteration])).toEqual([
      [undefined, 'triage', 'entry', 1],
      ['triage', 'diagnose', 'model_pick', 2],
    ]);
  });
});

describe('an agent stopped by its iteration cap', () => {
  it('records the iteration cap on the CallLLM span (the decider) (once: not its deprecated alias) and ends the run stopped_early', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ id: 'x1', name: 'lookup', args: { q: 'again' } }] }] });
    const agent = Agent.create({ provider, model: 'm1', name: 'Capped', maxIterations: 1 })
      .tool({ name: 'lookup', description: 'never reached', inputSchema: { type: 'object' }, execute: () => 'x' })
      .build();
    expect((await agent.run('loop forever')).text).toMatch(/^Stopped early/);
    const spans = sdk.spans();
    const route = spans.find((s) => s.name === 'CallLLM')!;
    expect(route.events.map((e) => e.name)).toEqual(['footprint.agent.iteration_start', 'footprint.agent.iteration_cap', 'footprint.agent.next_step']);
    expect(payloadOf(route.events[1])).toEqual({
      max_iterations: 1,
      iteration: 1,
      agent_id: 'agent',
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'agent',
    });
    const final = spans.find((s) => s.name === 'Final')!;
    expect(payloadOf(final.events[1])).toEqual({
      agent_id: 'agent',
      outcome: 'stopped_early',
      'stopped_early.reason': 'max_iterations',
      'stopped_early.iteration': 1,
      iterations: 1,
      llm_calls: 1,
      'tokens.input': 3,
      'tokens.output': 1,
      cost_usd: 0,
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'agent',
    });
    const root = spans.find((s) => s.name === 'invoke_agent Capped')!;
    expect(root.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'Capped',
      'gen_ai.request.model': 'm1',
      'gen_ai.usage.input_tokens': 3,
      'gen_ai.usage.output_tokens': 1,
      'gen_ai.response.finish_reasons': ['length'],
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'agent',
      'footprint.runner.kind': 'agent',
      'footprint.runner.id': 'agent',
      'footprint.run.id': expect.stringMatching(/^run_[0-9a-z]+$/),
      'footprint.run.outcome': 'stopped_early',
      'footprint.run.stop_reason': 'max_iterations',
      'footprint.turn.outcome': 'stopped_early',
      'footprint.llm.calls': 1,
      'footprint.iterations': 1,
      'footprint.tokens.input': 3,
      'footprint.tokens.output': 1,
      'footprint.cost.usd': 0,
      // Its answer is the runtime's "Stopped early" text, no model's output: no footprint.lineage.answer.* attributes.
    });
    expect(spans.some((s) => s.name.startsWith('execute_tool'))).toBe(false);
  });
});

describe('full detail for runner runs', () => {
  /** The trace recorders attached to executors while `run` runs, with the executor each went to. */
  async function traceRecordersDuring(run: () => Promise<unknown>) {
    const attached: { executor: FlowChartExecutor; recorder: Record<string, unknown> }[] = [];
    const spy = vi.spyOn(FlowChartExecutor.prototype, 'attachCombinedRecorder').mockImplementation(function (this: FlowChartExecutor, recorder, options) {
      if (recorder.id === TRACE_RECORDER_ID) attached.push({ executor: this, recorder: recorder as unknown as Record<string, unknown> });
      realAttach.call(this, recorder, options);
    });
    try {
      await run();
    } finally {
      spy.mockRestore();
    }
    return attached;
  }

  it("hears a run of the runtime's own charts from its hub: no footprintjs recorder, so no stage or commit notices and no narrative", async () => {
    const subscribe = vi.spyOn(EventHub.prototype, 'subscribeStages');
    let subscriptions = 0;
    const attached = await traceRecordersDuring(() => twoToolAgent().run('Is invoice 42 paid?')).finally(() => {
      subscriptions = subscribe.mock.calls.length;
      subscribe.mockRestore();
    });
    expect([attached, subscriptions]).toEqual([[], 1]);
    // The documented tree, stage spans and all, from the stages' own reports.
    expect(render(sdk.spans())).toBe(TWO_TOOL_TREE);
  });

  it("attaches only the two stage hooks to a Runner of a user's own chart (no flow hook: no narrative; no emit hook: emits come through the hub)", async () => {
    const attached = await traceRecordersDuring(() => new Greeter().run('hi'));
    expect(attached).toHaveLength(1);
    const { executor, recorder } = attached[0]!;
    expect(Object.keys(recorder).filter((k) => k.startsWith('on')).sort()).toEqual(['onStageEnd', 'onStageStart']);
    expect((executor as unknown as { narrativeEnabled: boolean }).narrativeEnabled).toBe(false);
    expect(render(sdk.spans())).toBe(['llm_call Greeter', '  Greet', '  Sign'].join('\n'));
  });

  it("keeps the stage spans of a user's chart mounted deeper than the member index walks (16 mounts)", async () => {
    for (const depth of [1, 16, 17]) {
      sdk.reset();
      let runner: Runner = new Greeter();
      for (let i = 0; i < depth; i++) runner = Sequence.create({ id: `s${i}` }).step(`m${i}`, runner).build();
      expect((await runner.run('hi')).text).toBe('hello, from the greeter');
      expect([depth, sdk.spans().map((s) => s.name).filter((name) => name === 'Greet' || name === 'Sign')]).toEqual([depth, ['Greet', 'Sign']]);
    }
  });
});

describe('LLMCall', () => {
  it('is a run span with its stages and one chat span', async () => {
    const call = LLMCall.create({
      provider: scripted({ name: 'anthropic', replies: [{ content: 'A summary.', usage: CALL_USAGE }] }),
      model: 'm1',
      id: 'summarize',
      name: 'Summarize',
      pricing: PRICING,
    })
      .system('Summarize.')
      .build();
    expect((await call.run('Long text')).text).toBe('A summary.');
    const spans = sdk.spans();
    expect(render(spans, { attrs: ['gen_ai.provider.name', 'footprint.runner.kind'] })).toBe(
      [
        'llm_call Summarize footprint.runner.kind=llm_call',
        ...UP_TO_CHAT.map((n) => `  ${n}`),
        '    chat m1 [CLIENT] gen_ai.provider.name=anthropic',
        '  Final',
      ].join('\n'),
    );
    const root = spans.find((s) => s.name === 'llm_call Summarize')!;
    // No gen_ai.* attribute: an LLMCall is not an agent invocation; its one chat span carries the GenAI call.
    expect(root.attributes).toEqual({
      'footprint.member.kind': 'llm_call',
      'footprint.member.id': 'summarize',
      'footprint.runner.kind': 'llm_call',
      'footprint.runner.id': 'summarize',
      'footprint.run.id': expect.stringMatching(/^run_[0-9a-z]+$/),
      'footprint.run.outcome': 'ok',
      'footprint.llm.calls': 1,
      'footprint.tokens.input': 100,
      'footprint.tokens.output': 20,
      'footprint.cost.usd': expect.closeTo(CALL_COST, 12),
      ...answerAttributes(spans.find((s) => s.name === 'chat m1')!),
    });
    expect(structure(spans).problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);
  });
});
