/**
 * Conformance on the unhappy paths: a provider that throws, a tool that fails, and a run cancelled
 * through its AbortSignal in the middle of a model call. The failing spans are ERROR with the
 * exception and a low-cardinality error.type, the run span fails with the run, and every span is
 * still ended, in one trace.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, ProviderError, RunCancelledError, RunFailedError, scripted } from '../../src/runtime/index.js';
import { runInputParts } from '../support/lineageLinks.js';
import { startSdk } from '../support/sdk.js';
import { render, structure, payloadOf } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const STAGES_TO_CALL = ['  Context'];

describe('a failure inside the agent', () => {
  it('fails the chat span, the CallLLM stage and the run span, and ends them all', async () => {
    const provider = scripted({
      replies: [{ error: new ProviderError({ provider: 'openai', kind: 'http', status: 503, message: 'upstream down', retryable: true }) }],
    });
    const agent = Agent.create({ provider, model: 'm1', name: 'Fragile' }).build();
    await expect(agent.run('hi')).rejects.toBeInstanceOf(RunFailedError);
    const spans = sdk.spans();
    expect(render(spans, { attrs: ['error.type'] })).toBe(
      [
        'invoke_agent Fragile !ERROR error.type=503',
        ...STAGES_TO_CALL,
        '  CallLLM !ERROR error.type=503',
        '    chat m1 [CLIENT] !ERROR error.type=503',
      ].join('\n'),
    );
    const chat = spans.find((s) => s.name === 'chat m1')!;
    expect(chat.status.message).toContain('upstream down');
    expect(chat.events.map((e) => e.name)).toEqual(['exception']);
    expect(chat.events[0]!.attributes).toEqual({ 'exception.type': 'ProviderError', 'exception.message': 'ProviderError: upstream down' });
    // A failed chat span's exact attribute set: the request, the call's identity, error.type.
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'm1',
      'error.type': '503',
      'footprint.agent': 'agent',
      'footprint.brain': 'default',
      'footprint.iteration': 1,
      'footprint.llm.call_id': expect.stringMatching(/^call_[0-9a-z]+$/),
      ...runInputParts(1),
    });
    // No response: no usage, no finish reason, only the failure.
    expect(Object.keys(chat.attributes).filter((key) => /^gen_ai\.(usage|response)\./.test(key))).toEqual([]);
    const root = spans.find((s) => s.name === 'invoke_agent Fragile')!;
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes['footprint.run.outcome']).toBe('error');
    // One failure, one exception event: on the chat span where it happened; the spans above carry error.type.
    expect(root.events.map((e) => e.name)).toEqual(['footprint.run.failed']);
    expect(spans.find((s) => s.name === 'CallLLM')!.events.map((e) => e.name)).toEqual(['footprint.agent.iteration_start']);
    expect(payloadOf(root.events[0])).toEqual({
      member: 'agent',
      member_kind: 'agent',
      stage: 'call-llm',
      'error.type': '503',
      'error.message': 'ProviderError: upstream down',
      'footprint.member.kind': 'agent',
      'footprint.member.id': 'agent',
    });
    expect(structure(spans).traceIds).toHaveLength(1);
    expect(structure(spans).problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);
  });

  it('marks a failing tool call ERROR while the run goes on', async () => {
    const provider = scripted({
      replies: (request) =>
        request.messages.some((m) => m.role === 'tool')
          ? 'recovered'
          : { toolCalls: [{ id: 't1', name: 'explode', args: {} }, { id: 't2', name: 'missing', args: {} }, { id: 't3', name: 'strict', args: {} }] },
    });
    const agent = Agent.create({ provider, model: 'm1', name: 'Tools' })
      .tool({ name: 'explode', description: 'throws', inputSchema: { type: 'object' }, execute: () => { throw new TypeError('kaboom'); } })
      .tool({ name: 'strict', description: 'needs n', inputSchema: { type: 'object', required: ['n'] }, execute: () => 'never' })
      .build();
    expect((await agent.run('go')).text).toBe('recovered');
    const spans = sdk.spans();
    // Concurrent calls end in the order they settle: compared by name.
    const tools = spans.filter((s) => s.name.startsWith('execute_tool')).sort((a, b) => a.name.localeCompare(b.name));
    expect(tools.map((t) => [t.name, t.status.code, t.attributes['error.type'], t.attributes['footprint.tool.status']])).toEqual([
      ['execute_tool explode', SpanStatusCode.ERROR, 'TypeError', 'error'],
      ['execute_tool missing', SpanStatusCode.ERROR, 'unknown_tool', 'unknown_tool'],
      ['execute_tool strict', SpanStatusCode.ERROR, 'invalid_args', 'invalid_args'],
    ]);
    // A failed execute_tool span's exact attribute set.
    expect(tools[0]!.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.name': 'explode',
      'gen_ai.tool.description': 'throws',
      'gen_ai.tool.call.id': 't1',
      'error.type': 'TypeError',
      'footprint.agent': 'agent',
      'footprint.iteration': 1,
      'footprint.tool.parallel_count': 3,
      'footprint.tool.status': 'error',
    });
    const root = spans.find((s) => s.name === 'invoke_agent Tools')!;
    expect(root.status.code).toBe(SpanStatusCode.UNSET);
    expect(root.attributes['footprint.run.outcome']).toBe('ok');
    expect(sdk.unended()).toEqual([]);
  });
});

describe('cancellation in the middle of a model call', () => {
  it('ends the chat span as aborted and the run as cancelled, all spans ended', async () => {
    const provider = scripted({ replies: [{ content: 'too late', delayMs: 5_000 }] });
    const agent = Agent.create({ provider, model: 'm1', name: 'Slow' }).build();
    const controller = new AbortController();
    const running = agent.run('hi', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    await expect(running).rejects.toBeInstanceOf(RunCancelledError);
    const spans = sdk.spans();
    expect(render(spans, { attrs: ['error.type'] })).toBe(
      [
        'invoke_agent Slow !ERROR error.type=cancelled',
        ...STAGES_TO_CALL,
        '  CallLLM !ERROR error.type=cancelled',
        '    chat m1 [CLIENT] !ERROR error.type=aborted',
      ].join('\n'),
    );
    const chat = spans.find((s) => s.name === 'chat m1')!;
    const exceptions = spans.flatMap((s) => s.events.filter((e) => e.name === 'exception').map((e) => [s.name, e.attributes?.['exception.type']]));
    expect(exceptions).toEqual([['chat m1', 'ProviderError']]);
    const [seconds, nanos] = chat.duration;
    expect(seconds * 1e3 + nanos / 1e6).toBeLessThan(1_000);
    expect(structure(spans).problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);
  });
});
