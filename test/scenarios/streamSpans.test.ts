/**
 * Streamed runs as traces, with the real SDK: a streamed run gives the same span tree as run(); fifty
 * concurrent streams on one swarm instance (one Agent with a tool, a hand-off) give fifty whole
 * traces, every chat and execute_tool span under its own invoke_agent; and a consumer that breaks
 * after the first chunk, one that never reads (then returns or aborts) and an abort mid-stream all
 * end every span, mark the run cancelled, and leave the caller's context active: the loop body and
 * the code after it run in the caller's span. Over HTTP (a Chat Completions server on 127.0.0.1), the
 * server sees each of those requests dropped by the client.
 */
import { context, trace, type Context } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { messageText, Agent, isPaused, openaiCompatible, RunCancelledError, scripted, swarm, type RunStream, type RunStreamPart } from '../../src/index.js';
import { sse } from '../runtime/providers/streaming.js';
import { startWireServer, writeBody, type WireServer } from '../runtime/providers/wireServer.js';
import { activeSpanName, approvalAgent, expectResumedApprovalRun, TURN_UP_TO_CHAT } from '../support/agents.js';
import { startSdk } from '../support/sdk.js';
import { chunksHeard, drain, text } from '../support/streams.js';
import { groupByTrace, traceProblems } from '../support/traceChecks.js';
import { render, structure } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const tracer = trace.getTracer('test.caller');

/** Looks the message up with its tool, then answers `found <message>` in 3-character chunks, 1 ms apart. */
function lookupAgent() {
  const provider = scripted({
    name: 'openai',
    chunkChars: 3,
    chunkDelayMs: 1,
    replies: (request) => {
      const asked = request.messages.find((m) => m.role === 'user')!.content;
      const looked = request.messages.find((m) => m.role === 'tool');
      return looked ? { content: `found ${looked.content}`, usage: { input: 20, output: 5 } } : { toolCalls: [{ name: 'lookup', args: { q: asked } }], usage: { input: 10, output: 3 } };
    },
  });
  return Agent.create({ provider, model: 'm1', id: 'helper', name: 'Helper' })
    .tool({ name: 'lookup', description: 'Finds it', inputSchema: { type: 'object' }, execute: async (args: { q: string }) => `[${args.q}]` })
    .build();
}

/** Answers `closed: <message>` in two chunks. */
function closerAgent() {
  const provider = scripted({
    name: 'openai',
    replies: (request) => ({ chunks: ['closed: ', messageText(request.messages.at(-1)!.content)], usage: { input: 5, output: 2 } }),
  });
  return Agent.create({ provider, model: 'm1', id: 'closer', name: 'Closer' }).build();
}

/** triage (lookupAgent) hands to closer, then the swarm is done. */
function desk() {
  return swarm({
    id: 'desk',
    agents: [
      { id: 'triage', runner: lookupAgent() },
      { id: 'closer', runner: closerAgent() },
    ],
    pick: ({ lastAgent }) => (lastAgent === undefined ? 'triage' : lastAgent === 'triage' ? 'closer' : undefined),
  });
}

/** A long answer in one-character chunks, 5 ms apart: long enough to be cut off mid-way. */
function slowAgent() {
  const provider = scripted({ name: 'openai', chunkChars: 1, chunkDelayMs: 5, replies: ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN'] });
  return Agent.create({ provider, model: 'm1', id: 'slow', name: 'Slow' }).build();
}

/** The spans above `span`, nearest first. */
function ancestors(spans: readonly ReadableSpan[], span: ReadableSpan): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const out: ReadableSpan[] = [];
  for (let parent = byId.get(span.parentSpanContext?.spanId ?? ''); parent; parent = byId.get(parent.parentSpanContext?.spanId ?? '')) out.push(parent);
  return out;
}

/** Runs `body` inside an active caller span; returns what the body returned and the caller's context. */
async function asCaller<T>(body: (caller: Context) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan('caller', async (span) => {
    try {
      return await body(context.active());
    } finally {
      span.end();
    }
  });
}

describe('a streamed run as a trace', () => {
  it('has the span tree run() has, and the loop runs in the caller context throughout', async () => {
    await lookupAgent().run('invoice 42');
    const ran = render(sdk.spans(), { attrs: ['footprint.run.outcome'] });
    // Span events too: a chunk is never one.
    const ranEvents = render(sdk.spans(), { events: true });
    sdk.reset();
    const seenInLoop = new Set<string>();
    const afterLoop = await asCaller(async (caller) => {
      for await (const part of lookupAgent().stream('invoice 42')) {
        if (part.type === 'text') seenInLoop.add(activeSpanName());
        expect(context.active()).toBe(caller);
      }
      return context.active() === caller ? activeSpanName() : 'another context';
    });
    expect(seenInLoop).toEqual(new Set(['caller']));
    expect(afterLoop).toBe('caller');
    const spans = sdk.spans().filter((s) => s.name !== 'caller');
    expect(render(spans, { attrs: ['footprint.run.outcome'] })).toBe(ran);
    expect(render(spans, { events: true })).toBe(ranEvents);
    expect(spans.flatMap((s) => s.events.map((e) => e.name)).filter((name) => name.includes('chunk'))).toEqual([]);
    expect(ran).toBe(
      [
        'invoke_agent Helper footprint.run.outcome=ok',
        '  Context',
        ...TURN_UP_TO_CHAT,
        '  ToolCalls',
        '    execute_tool lookup',
        ...TURN_UP_TO_CHAT,
        '  Final',
      ].join('\n'),
    );
    // The run span is the caller's child.
    const caller = sdk.spans().find((s) => s.name === 'caller')!;
    const root = spans.find((s) => s.name === 'invoke_agent Helper')!;
    expect(root.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(sdk.unended()).toEqual([]);
  });
});

describe('a streamed pause, resumed streaming', () => {
  it('ends every span marked paused, and the resumed stream continues the trace under the paused run span', async () => {
    const stream = approvalAgent().stream('Refund order 7');
    await drain(stream);
    const paused = await stream.result;
    if (!isPaused(paused)) throw new Error('expected a pause');
    expect(sdk.unended()).toEqual([]);
    const pausedRoot = sdk.spans().find((s) => s.name === 'invoke_agent Refunds')!;
    expect(pausedRoot.attributes['footprint.run.outcome']).toBe('paused');
    sdk.reset();

    const resumed = approvalAgent().resumeStream(JSON.parse(JSON.stringify(paused.paused.checkpoint)), 'yes');
    expect((await drain(resumed)).at(-1)).toEqual({ type: 'end', result: expect.objectContaining({ text: 'Refund issued.' }) });
    expectResumedApprovalRun(sdk.spans(), pausedRoot);
    expect(sdk.unended()).toEqual([]);
  });
});

describe('fifty concurrent streamed runs on one swarm instance', () => {
  it('give fifty whole traces, each chat and execute_tool span under its own invoke_agent, and fifty separate streams', async () => {
    const runner = desk();
    const inputs = Array.from({ length: 50 }, (_, i) => `ticket ${i}`);
    const streams = inputs.map((input) => runner.stream(input));
    const parts = await Promise.all(streams.map((s) => drain(s)));
    for (const [i, input] of inputs.entries()) {
      const source = { member: { kind: 'agent', id: 'helper' }, agentId: 'helper', route: 'desk>triage' };
      const toolCallId = (parts[i]![1] as Extract<RunStreamPart, { type: 'tool_call' }>).toolCallId;
      const answer = `found [${input}]`;
      const chunks = answer.match(/.{1,3}/g)!;
      expect(parts[i]).toEqual([
        expect.objectContaining({ type: 'handoff', to: 'triage' }),
        { type: 'tool_call', toolCallId, toolName: 'lookup', args: { q: input }, ...source },
        { type: 'tool_result', toolCallId, toolName: 'lookup', status: 'ok', result: `[${input}]`, ...source },
        ...chunks.map((delta) => text(delta, { kind: 'agent', id: 'helper' }, 'desk>triage')),
        expect.objectContaining({ type: 'handoff', to: 'closer' }),
        text('closed: ', { kind: 'agent', id: 'closer' }, 'desk>closer'),
        // The closer gets the user's ticket and the triage agent's reply, labelled.
        text(`Agent "triage" replied:\n${answer}`, { kind: 'agent', id: 'closer' }, 'desk>closer'),
        { type: 'end', result: expect.objectContaining({ text: `closed: Agent "triage" replied:\n${answer}` }) },
      ]);
    }

    const spans = sdk.spans();
    expect(traceProblems(spans, { traces: 50, unended: sdk.unended() })).toEqual([]);
    for (const trace of groupByTrace(spans).values()) {
      expect(structure(trace).problems).toEqual([]);
      const agents = trace.filter((s) => s.name.startsWith('invoke_agent ') && s.parentSpanContext !== undefined);
      expect(agents.map((s) => s.name).sort()).toEqual(['invoke_agent Closer', 'invoke_agent Helper']);
      const calls = trace.filter((s) => s.name === 'chat m1' || s.name === 'execute_tool lookup');
      expect(calls.map((s) => s.name).sort()).toEqual(['chat m1', 'chat m1', 'chat m1', 'execute_tool lookup']);
      for (const call of calls) {
        const owner = ancestors(trace, call).find((s) => s.name.startsWith('invoke_agent ') && s.parentSpanContext !== undefined)!;
        // Its own agent's span: the one whose id the call names (chat: footprint.agent; tool: the one agent with tools).
        const agentId = call.name === 'chat m1' ? call.attributes['footprint.agent'] : 'helper';
        expect(owner.attributes['footprint.member.id']).toBe(agentId);
      }
    }
  });
});

describe('a stream ended early', () => {
  /** What every early end must leave: all spans ended, the run cancelled, the chat span aborted. */
  function expectCancelledTrace() {
    const spans = sdk.spans();
    expect(sdk.unended()).toEqual([]);
    const root = spans.find((s) => s.name === 'invoke_agent Slow')!;
    expect([root.attributes['footprint.run.outcome'], root.attributes['error.type']]).toEqual(['cancelled', 'cancelled']);
    const chat = spans.find((s) => s.name === 'chat m1')!;
    expect(chat.attributes['error.type']).toBe('aborted');
    const caller = spans.find((s) => s.name === 'caller')!;
    expect(root.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    // The run's own spans (the caller's span is timed by the test's clock, not the bridge's).
    expect(structure(spans.filter((s) => s !== caller)).problems).toEqual([]);
  }

  async function cancelledResult(stream: RunStream): Promise<unknown> {
    return stream.result.then(
      () => 'answered',
      (error: unknown) => error,
    );
  }

  it('by a break after the first chunk', async () => {
    const after = await asCaller(async (caller) => {
      const stream = slowAgent().stream('go');
      for await (const part of stream) {
        expect(part).toMatchObject({ type: 'text', delta: 'a' });
        break;
      }
      expect(await cancelledResult(stream)).toBeInstanceOf(RunCancelledError);
      return context.active() === caller;
    });
    expect(after).toBe(true);
    expectCancelledTrace();
  });

  it('by return() on a stream never read', async () => {
    const after = await asCaller(async (caller) => {
      const agent = slowAgent();
      const flowing = chunksHeard(agent, 1);
      const stream = agent.stream('go');
      await flowing;
      await stream.return();
      expect(await cancelledResult(stream)).toBeInstanceOf(RunCancelledError);
      return context.active() === caller;
    });
    expect(after).toBe(true);
    expectCancelledTrace();
  });

  it("by the caller's signal on a stream never read", async () => {
    const after = await asCaller(async (caller) => {
      const controller = new AbortController();
      const agent = slowAgent();
      const flowing = chunksHeard(agent, 1);
      const stream = agent.stream('go', { signal: controller.signal });
      await flowing;
      controller.abort(new Error('user left'));
      expect(await cancelledResult(stream)).toBeInstanceOf(RunCancelledError);
      return context.active() === caller;
    });
    expect(after).toBe(true);
    expectCancelledTrace();
  });

  it("by the caller's signal mid-stream", async () => {
    const after = await asCaller(async (caller) => {
      const controller = new AbortController();
      const stream = slowAgent().stream('go', { signal: controller.signal });
      let read = 0;
      await expect(
        (async () => {
          for await (const _ of stream) if (++read === 3) controller.abort(new Error('user left'));
        })(),
      ).rejects.toBeInstanceOf(RunCancelledError);
      expect(read).toBe(3);
      return context.active() === caller;
    });
    expect(after).toBe(true);
    expectCancelledTrace();
  });

  it('leaves no span open and no context behind when the caller has none', async () => {
    const stream = slowAgent().stream('go');
    await stream.next();
    await stream.return();
    expect(trace.getActiveSpan()).toBeUndefined();
    expect(sdk.unended()).toEqual([]);
    await expect(drain(stream)).resolves.toEqual([]);
  });
});

describe('a stream ended early, over HTTP', () => {
  /** A Chat Completions server that streams `letters` one per SSE frame, `pauseMs` apart, then stops. */
  async function slowServer(letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN', pauseMs = 10): Promise<WireServer> {
    const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
      sse({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'm1', choices: [{ index: 0, delta, finish_reason: finish }] });
    return startWireServer((_request, res) => {
      const steps = [...letters].flatMap((letter) => [frame({ content: letter }), { pauseMs }]);
      void writeBody(res, [...steps, frame({}, 'stop'), 'data: [DONE]\n\n']);
    });
  }

  const servers: WireServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  async function httpAgent() {
    const server = await slowServer();
    servers.push(server);
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: server.url, maxRetries: 0 }), model: 'm1', id: 'slow', name: 'Slow' }).build();
    return { agent, server };
  }

  /** The request was dropped by the client, every span ended, the run cancelled, the caller's context back. */
  async function expectCancelled(server: WireServer, stream: RunStream, callerContextAfter: boolean) {
    expect(callerContextAfter).toBe(true);
    expect(await stream.result.then(() => 'answered', (e: unknown) => e)).toBeInstanceOf(RunCancelledError);
    expect(server.requests).toHaveLength(1);
    await server.requests[0]!.droppedByClient;
    expect(sdk.unended()).toEqual([]);
    const root = sdk.spans().find((s) => s.name === 'invoke_agent Slow')!;
    expect([root.attributes['footprint.run.outcome'], root.attributes['error.type']]).toEqual(['cancelled', 'cancelled']);
  }

  it('a break after the first chunk drops the request', async () => {
    const { agent, server } = await httpAgent();
    let stream!: RunStream;
    const after = await asCaller(async (caller) => {
      stream = agent.stream('go');
      for await (const part of stream) {
        expect(part).toMatchObject({ type: 'text', delta: 'a' });
        break;
      }
      return context.active() === caller;
    });
    await expectCancelled(server, stream, after);
  });

  it('return() on a stream never read drops the request', async () => {
    const { agent, server } = await httpAgent();
    let stream!: RunStream;
    const after = await asCaller(async (caller) => {
      // Never read: return() once the response is flowing (the first chunk reached the listeners).
      const flowing = chunksHeard(agent, 1);
      stream = agent.stream('go');
      await flowing;
      await stream.return();
      return context.active() === caller;
    });
    await expectCancelled(server, stream, after);
  });

  it("the caller's signal mid-stream drops the request", async () => {
    const { agent, server } = await httpAgent();
    let stream!: RunStream;
    const after = await asCaller(async (caller) => {
      const controller = new AbortController();
      stream = agent.stream('go', { signal: controller.signal });
      let read = 0;
      await expect(
        (async () => {
          for await (const _ of stream) if (++read === 3) controller.abort(new Error('user left'));
        })(),
      ).rejects.toBeInstanceOf(RunCancelledError);
      return context.active() === caller;
    });
    await expectCancelled(server, stream, after);
  });
});
