/**
 * The agents the bridge tests run (also built by the child-process resume fixture, so both sides of
 * a cross-process resume run the same chart). Replies are scripted from the request, never from a
 * call counter, so a resumed agent on a fresh provider continues where the paused one stopped.
 */
import { trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { flowChart, type FlowChart } from 'footprintjs';
import { expect } from 'vitest';
import { Agent, quietLogger, Runner, scripted, type LLMRequest, type ScriptedReply } from '../../src/runtime/index.js';
import { render } from './traceTree.js';

export const PRICING = { m1: { input: 2, output: 10 } };

/** Usage per call: 100 in / 20 out, so each call costs (100*2 + 20*10) / 1e6 USD. */
export const CALL_USAGE = { input: 100, output: 20 };
export const CALL_COST = (100 * 2 + 20 * 10) / 1e6;

function toolResults(request: LLMRequest): number {
  return request.messages.filter((m) => m.role === 'tool').length;
}

/**
 * One agent iteration up to its chat call, as render() prints it under the run span (the turn's
 * first is after its Context stage; ToolCalls loops back to CallLLM): every agent in these fixtures
 * walks these stages in this order before it routes.
 */
export const TURN_UP_TO_CHAT = ['  CallLLM', '    chat m1 [CLIENT]'];

/** Three iterations: lookup + weather in parallel, then lookup, then the answer. */
export function twoToolAgent(options: { answer?: string; delayMs?: number } = {}) {
  const provider = scripted({
    name: 'openai',
    replies: (request): ScriptedReply => {
      const done = toolResults(request);
      const base = { usage: CALL_USAGE, delayMs: options.delayMs };
      if (done === 0) {
        return { ...base, toolCalls: [{ id: 'c1', name: 'lookup', args: { q: 'invoice 42' } }, { id: 'c2', name: 'weather', args: { city: 'Oslo' } }] };
      }
      if (done === 2) return { ...base, toolCalls: [{ id: 'c3', name: 'lookup', args: { q: 'invoice 43' } }] };
      return { ...base, content: options.answer ?? 'Invoice 42 is paid.' };
    },
  });
  return Agent.create({ provider, model: 'm1', id: 'helper', name: 'Helper', pricing: PRICING, temperature: 0.2, maxTokens: 256 })
    .system('Be terse.')
    .tool({ name: 'lookup', description: 'Finds an invoice', inputSchema: { type: 'object' }, execute: async (args: { q: string }) => `found ${args.q}` })
    .tool({ name: 'weather', description: 'Weather in a city', inputSchema: { type: 'object' }, execute: async () => 'sunny' })
    .build();
}

/**
 * The exact attribute set of the run span of a twoToolAgent() run that answered in three calls, in
 * either detail level (volatile values as matchers); `answer` is the third chat span, which the run
 * span names as its answer's; `sessionId` when the run was given one.
 */
export function twoToolRunAttributes(answer: ReadableSpan, options: { sessionId?: string } = {}) {
  return {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'Helper',
    'gen_ai.request.model': 'm1',
    'gen_ai.request.temperature': 0.2,
    'gen_ai.request.max_tokens': 256,
    ...(options.sessionId === undefined ? {} : { 'gen_ai.conversation.id': options.sessionId }),
    'gen_ai.usage.input_tokens': 300,
    'gen_ai.usage.output_tokens': 60,
    'gen_ai.response.finish_reasons': ['stop'],
    'footprint.member.kind': 'agent',
    'footprint.member.id': 'helper',
    'footprint.runner.kind': 'agent',
    'footprint.runner.id': 'helper',
    'footprint.run.id': expect.stringMatching(/^run_[0-9a-z]+$/),
    'footprint.run.outcome': 'ok',
    'footprint.turn.outcome': 'ok',
    'footprint.llm.calls': 3,
    'footprint.iterations': 3,
    'footprint.tokens.input': 300,
    'footprint.tokens.output': 60,
    'footprint.cost.usd': expect.closeTo(3 * CALL_COST, 12),
    ...answerAttributes(answer),
  };
}

/** What a run span says of the chat span whose output became its answer (docs/lineage.md). */
export function answerAttributes(chat: ReadableSpan) {
  return { 'footprint.lineage.answer.span_id': chat.spanContext().spanId, 'footprint.lineage.answer.producer': chat.attributes['footprint.llm.call_id'] };
}

/**
 * The exact attribute set of the chat span of `iteration` (1 to 3) of a twoToolAgent() run, content
 * capture off (no gen_ai.input.messages): two tool-call answers, then the answer.
 */
export function twoToolChatAttributes(iteration: 1 | 2 | 3, options: { sessionId?: string } = {}) {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'm1',
    'gen_ai.request.temperature': 0.2,
    'gen_ai.request.max_tokens': 256,
    'gen_ai.response.model': 'm1',
    'gen_ai.response.finish_reasons': [iteration < 3 ? 'tool_call' : 'stop'],
    'gen_ai.usage.input_tokens': CALL_USAGE.input,
    'gen_ai.usage.output_tokens': CALL_USAGE.output,
    ...(options.sessionId === undefined ? {} : { 'gen_ai.conversation.id': options.sessionId }),
    'footprint.agent': 'helper',
    'footprint.brain': 'default',
    'footprint.iteration': iteration,
    'footprint.llm.call_id': expect.stringMatching(/^call_[0-9a-z]+$/),
    'footprint.cost.priced': true,
    'footprint.cost.usd': expect.closeTo(CALL_COST, 12),
    ...twoToolParts(iteration),
  };
}

/**
 * The part arrays of a twoToolAgent() call asked 'Is invoice 42 paid?': the instructions ("Be terse."),
 * the input, each earlier reply and tool result, the tool list; tokens are ceil(chars / 4). A call
 * after the first lists what follows the parts it shares with the call before (docs/lineage.md).
 */
function twoToolParts(iteration: 1 | 2 | 3) {
  const call = expect.stringMatching(/^call_[0-9a-z]+$/);
  const toolCall = (id: string) => expect.stringMatching(new RegExp(`^call_[0-9a-z]+:${id}$`));
  // The first reply (lookup + weather: 46 chars), "found invoice 42", "sunny"; the second (lookup: 24 chars), "found invoice 43".
  const parts = [
    [['instructions', 'helper', 3], ['run_input', expect.stringMatching(/^run_[0-9a-z]+$/), 5]],
    [['model_output', call, 12], ['tool_result', toolCall('c1'), 4], ['tool_result', toolCall('c2'), 2]],
    [['model_output', call, 6], ['tool_result', toolCall('c3'), 4]],
  ][iteration - 1]!.concat([['tool_definitions', 'helper', TWO_TOOL_DEFINITIONS_TOKENS]]);
  // Call 2 shares the instructions and the input with call 1; call 3 those and call 2's new messages (not the tool list: it comes last).
  const shared = [0, 2, 5][iteration - 1]!;
  return {
    'footprint.lineage.part.origins': parts.map((part) => part[0]),
    'footprint.lineage.part.producers': parts.map((part) => part[1]),
    'footprint.lineage.part.tokens': parts.map((part) => part[2]),
    ...(shared === 0 ? {} : { 'footprint.lineage.shared.parts': shared, 'footprint.lineage.shared.span_id': expect.stringMatching(/^[0-9a-f]{16}$/) }),
  };
}

/** The tool list of twoToolAgent() as sent: the JSON of both definitions, 169 chars. */
const TWO_TOOL_DEFINITIONS_TOKENS = 43;

/** Asks for lookup + approve; approve pauses for a human; after the answer, the model answers. */
export function approvalAgent() {
  const provider = scripted({
    name: 'anthropic',
    replies: (request): ScriptedReply =>
      toolResults(request) === 0
        ? { usage: CALL_USAGE, toolCalls: [{ id: 'c1', name: 'lookup', args: {} }, { id: 'c2', name: 'approve', args: {} }] }
        : { usage: CALL_USAGE, content: 'Refund issued.' },
  });
  return Agent.create({ provider, model: 'm1', id: 'refunds', name: 'Refunds', pricing: PRICING })
    .tool({ name: 'lookup', description: 'Finds the order', inputSchema: { type: 'object' }, execute: async () => 'order 7' })
    .tool({
      name: 'approve',
      description: 'Asks a human',
      inputSchema: { type: 'object' },
      execute: async (_args, ctx) => `approved: ${String(await ctx.pause('Refund order 7?'))}`,
    })
    .build();
}

/**
 * Asserts the spans of an approvalAgent() run resumed after its pause (run() or stream()): the
 * tree from the approval to the answer, its run span marked resumed and ok, a child of the paused
 * run span in the same trace. Returns the resumed run span.
 */
export function expectResumedApprovalRun(spans: readonly ReadableSpan[], pausedRoot: ReadableSpan): ReadableSpan {
  expect(render(spans, { attrs: ['footprint.resumed', 'footprint.run.outcome'] })).toBe(
    [
      'invoke_agent Refunds footprint.resumed=true footprint.run.outcome=ok',
      '  ToolCalls',
      '    execute_tool approve',
      ...TURN_UP_TO_CHAT,
      '  Final',
    ].join('\n'),
  );
  const root = spans.find((s) => s.name === 'invoke_agent Refunds')!;
  expect(root.spanContext().traceId).toBe(pausedRoot.spanContext().traceId);
  expect(root.parentSpanContext?.spanId).toBe(pausedRoot.spanContext().spanId);
  return root;
}

/** The name of the span active right now, or '(none)'. */
export function activeSpanName(): string {
  return (trace.getActiveSpan() as unknown as { name?: string } | undefined)?.name ?? '(none)';
}

/**
 * An agent that notes the active span (into `seen`) where its provider is called and where its one
 * tool runs, before and after an await: for tests of what the bridge makes active.
 */
export function activeSpanProbe(seen: string[]) {
  const provider = scripted({
    replies: async (request) => {
      seen.push(`provider: ${activeSpanName()}`);
      return request.messages.some((m) => m.role === 'tool') ? 'done' : { toolCalls: [{ name: 'probe', args: {} }] };
    },
  });
  return Agent.create({ provider, model: 'm1', name: 'Probe' })
    .tool({
      name: 'probe',
      description: 'notes the active span',
      inputSchema: { type: 'object' },
      execute: async () => {
        seen.push(`tool: ${activeSpanName()}`);
        await new Promise((r) => setTimeout(r, 1));
        seen.push(`tool after await: ${activeSpanName()}`);
        return 'ok';
      },
    })
    .build();
}

/** A Runner whose chart a user wrote (not marked runtimeChart): its stages report nothing to the run's hub. */
export class Greeter extends Runner {
  readonly kind = 'llm_call' as const;
  readonly id = 'greeter';
  readonly name = 'Greeter';
  protected buildChart(): FlowChart {
    return flowChart<{ text?: string }>('Greet', (scope) => void (scope.text = 'hello'), 'greet')
      .addFunction('Sign', (scope) => `${scope.text}, from the greeter`, 'sign')
      .setLogger(quietLogger)
      .build();
  }
}
