/**
 * A bad tool never crashes a run or breaks its trace. A tool that throws (an Error, a string, null,
 * an object, an Error with a 10 MB message), returns something JSON cannot carry (a cycle, a BigInt,
 * a function, a symbol, a Map, a throwing toJSON, a hostile Proxy) or something huge (a 10 MB string,
 * alone or nested), gets called with invalid, cyclic or huge arguments, or hangs ignoring the run's
 * AbortSignal: the run still ends the way it should (answered, or cancelled at its deadline), the
 * model sees an error or a truncated result of bounded size, and the trace — recorded with content
 * capture on, the worst case for span size — stays one well-formed trace with every attribute within
 * the documented caps.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messageText, Agent, DEFAULT_TOOL_LIMITS, RunCancelledError, scripted, tracingFailures, type ScriptedReply } from '../../src/index.js';
import { MAX_TOOL_RESULT_CHARS } from '../../src/runtime/tools/index.js';
import { named, only, outcomeOf } from '../support/reliability/runs.js';
import { startSdk } from '../support/sdk.js';
import { traceProblems } from '../support/traceChecks.js';

const sdk = startSdk({ tracing: { captureContent: true } });
afterAll(async () => {
  await sdk.shutdown();
});
let failuresBefore = 0;
beforeEach(() => {
  sdk.reset();
  failuresBefore = tracingFailures();
});

/** The longest text the model may be handed for one tool call: the cap plus its truncation note. */
const MODEL_TEXT_CAP = MAX_TOOL_RESULT_CHARS + 40;
const HUGE = 10_000_000;

/**
 * An agent whose model calls `odd` with `args` once, then answers "done" having seen the result
 * (kept in `seen`). `execute` is the tool body.
 */
function agentWith(execute: (args: Record<string, unknown>) => unknown, args: Record<string, unknown> = {}, schema: Record<string, unknown> = { type: 'object' }) {
  const seen: string[] = [];
  const provider = scripted({
    name: 'openai',
    replies: (request): ScriptedReply => {
      const tool = request.messages.filter((m) => m.role === 'tool');
      if (tool.length > 0) {
        seen.push(messageText(tool[tool.length - 1]!.content));
        return 'done';
      }
      return { toolCalls: [{ id: 'odd-1', name: 'odd', args }] };
    },
  });
  const agent = Agent.create({ provider, model: 'm-tools', id: 'tooler', name: 'Tooler' })
    .tool({ name: 'odd', description: 'Misbehaves', inputSchema: schema, execute })
    .build();
  return { agent, seen };
}

/** One well-formed trace, the run answered, the tool span in the given state. */
function expectCleanTrace(toolStatus: string) {
  const spans = sdk.spans();
  expect(traceProblems(spans, { unended: sdk.unended(), traces: 1 })).toEqual([]);
  const root = only(spans, 'invoke_agent Tooler');
  expect(root.status.code).toBe(SpanStatusCode.UNSET);
  expect(root.attributes['footprint.run.outcome']).toBe('ok');
  const tool = only(spans, 'execute_tool odd');
  expect(tool.attributes['footprint.tool.status']).toBe(toolStatus);
  expect(tool.status.code).toBe(toolStatus === 'ok' ? SpanStatusCode.UNSET : SpanStatusCode.ERROR);
  expect(tracingFailures()).toBe(failuresBefore);
}

describe('a tool that throws', () => {
  const thrown: [string, () => unknown][] = [
    ['an Error', () => new TypeError('lookup table missing')],
    ['a string', () => 'plain string failure'],
    ['null', () => null],
    ['undefined', () => undefined],
    ['a plain object', () => ({ code: 'E_ODD', detail: { deep: [1, 2, 3] } })],
    ['an Error with a 10 MB message', () => new Error('x'.repeat(HUGE))],
    ['an object whose getters throw', () => ({ get message(): string { throw new Error('getter'); }, get name(): string { throw new Error('getter'); } })],
  ];

  it.each(thrown)('%s: the model sees a bounded error, the run answers, the trace is well-formed', async (_label, make) => {
    const { agent, seen } = agentWith(() => {
      throw make();
    });
    expect((await agent.run('go')).text).toBe('done');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^Tool "odd" failed: /);
    expect(seen[0]!.length).toBeLessThanOrEqual(MODEL_TEXT_CAP);
    expectCleanTrace('error');
  });

  it('asynchronously, after a delay: the same', async () => {
    const { agent, seen } = agentWith(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new RangeError('late failure');
    });
    expect((await agent.run('go')).text).toBe('done');
    expect(seen[0]).toBe('Tool "odd" failed: RangeError: late failure');
    expectCleanTrace('error');
    expect(only(sdk.spans(), 'execute_tool odd').attributes['error.type']).toBe('RangeError');
  });
});

describe('a tool that returns what JSON cannot carry, or too much of it', () => {
  const cycle: Record<string, unknown> = { name: 'loop' };
  cycle.self = cycle;
  cycle.list = [cycle, { back: cycle }];
  const returned: [string, () => unknown][] = [
    ['a cyclic object', () => cycle],
    ['a BigInt', () => 12345678901234567890n],
    ['BigInts inside', () => ({ big: 1n, list: [2n, { deeper: 3n }] })],
    ['a function', () => () => 'never called'],
    ['a symbol', () => Symbol('odd')],
    ['a Map and a Set', () => ({ map: new Map([[1, { a: 1 }]]), set: new Set([1, 2]) })],
    ['an object whose toJSON throws', () => ({ toJSON: () => { throw new Error('no JSON for you'); } })],
    ['a Proxy whose every trap throws', () => new Proxy({}, { get: () => { throw new Error('get'); }, ownKeys: () => { throw new Error('keys'); } })],
    ['a 10 MB string', () => 'y'.repeat(HUGE)],
    ['a 10 MB string inside an object', () => ({ rows: [{ blob: 'z'.repeat(HUGE) }] })],
    ['a 100,000-element array', () => Array.from({ length: 100_000 }, (_, i) => ({ i }))],
    ['undefined', () => undefined],
  ];

  it.each(returned)('%s: the model sees a bounded text, the run answers, the trace is well-formed', async (_label, make) => {
    const { agent, seen } = agentWith(() => make());
    expect((await agent.run('go')).text).toBe('done');
    expect(seen).toHaveLength(1);
    expect(typeof seen[0]).toBe('string');
    expect(seen[0]!.length).toBeLessThanOrEqual(MODEL_TEXT_CAP);
    // A Proxy that throws on every read makes the tool's result unreadable: it counts as the tool failing.
    expectCleanTrace(_label.startsWith('a Proxy') ? 'error' : 'ok');
  });

  it('a huge result is cut with a visible note, for the model and in the span', async () => {
    const { agent, seen } = agentWith(() => 'y'.repeat(HUGE));
    await agent.run('go');
    expect(seen[0]).toMatch(/^y{16000}… \[truncated 9984000 chars\]$/);
    const result = String(only(sdk.spans(), 'execute_tool odd').attributes['gen_ai.tool.call.result']);
    expect(result.startsWith('yyyy')).toBe(true);
    expect(result).toMatch(/…\(\+\d+ chars\)$/);
  });
});

describe('a tool called with bad arguments', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false };
  const cyclic: Record<string, unknown> = { n: 1 };
  cyclic.again = cyclic;
  const bad: [string, Record<string, unknown>][] = [
    ['of the wrong type', { n: 'seven' }],
    ['missing a required field', {}],
    ['with an unknown field', { n: 1, extra: true }],
    ['that are cyclic', cyclic],
    ['holding a 1 MB string', { n: 1, blob: 'q'.repeat(1_000_000) }],
  ];

  it.each(bad)('%s: never executed, the model is told what is wrong, the trace is well-formed', async (_label, args) => {
    let executed = 0;
    const { agent, seen } = agentWith(() => executed++, args, schema);
    expect((await agent.run('go')).text).toBe('done');
    expect(executed).toBe(0);
    expect(seen[0]).toMatch(/^Invalid arguments for tool "odd": .+\. Fix them and call again\.$/);
    expect(seen[0]!.length).toBeLessThanOrEqual(MODEL_TEXT_CAP);
    expectCleanTrace('invalid_args');
    expect(only(sdk.spans(), 'execute_tool odd').attributes['error.type']).toBe('invalid_args');
  });

  it('nested 10,000 deep (valid JSON a model can write): never executed, the model is told, the trace is well-formed', async () => {
    let deep: Record<string, unknown> = {};
    const args = deep;
    for (let i = 0; i < 10_000; i++) deep = (deep.a = {}) as Record<string, unknown>;
    let executed = 0;
    const { agent, seen } = agentWith(() => executed++, args);
    expect((await agent.run('go')).text).toBe('done');
    expect(executed).toBe(0);
    expect(seen).toEqual(['Invalid arguments for tool "odd": they cannot be copied (they hold a function or a symbol, or are nested too deep). Fix them and call again.']);
    expectCleanTrace('invalid_args');
    const tool = only(sdk.spans(), 'execute_tool odd');
    expect([tool.attributes['error.type'], tool.status.message]).toEqual(['invalid_args', 'they cannot be copied (they hold a function or a symbol, or are nested too deep)']);
  });

  it('huge valid arguments: executed, and recorded within the cap', async () => {
    const { agent } = agentWith((args) => String(args.note).length, { note: 'w'.repeat(1_000_000) });
    expect((await agent.run('go')).text).toBe('done');
    expectCleanTrace('ok');
    const recorded = String(only(sdk.spans(), 'execute_tool odd').attributes['gen_ai.tool.call.arguments']);
    expect(JSON.parse(recorded)).toMatchObject({ note: expect.stringMatching(/…\[truncated \d+ chars\]$/) });
  });
});

describe('a tool that hangs and ignores the AbortSignal', () => {
  it('does not hold a cancelled run: it ends as cancelled at its deadline, the trace well-formed', async () => {
    let started = 0;
    const { agent } = agentWith(() => {
      started++;
      return new Promise(() => {});
    });
    const result = await outcomeOf(agent.run('go', { signal: AbortSignal.timeout(100) }));
    expect(result.ok).toBe(false);
    expect((result as { error: unknown }).error).toBeInstanceOf(RunCancelledError);
    expect(started).toBe(1);
    const spans = sdk.spans();
    expect(traceProblems(spans, { unended: sdk.unended(), traces: 1 })).toEqual([]);
    const root = only(spans, 'invoke_agent Tooler');
    expect([root.status.code, root.attributes['error.type']]).toEqual([SpanStatusCode.ERROR, 'cancelled']);
    expect(named(spans, 'execute_tool odd')).toHaveLength(1);
  }, 10_000);
});

describe('a thrown value that is not an Error', () => {
  const unreadable = new Proxy(
    {},
    {
      get: () => {
        throw new Error('get');
      },
      getPrototypeOf: () => {
        throw new Error('proto');
      },
      ownKeys: () => {
        throw new Error('keys');
      },
    },
  );
  const thrown: [string, () => unknown, string][] = [
    ['a string', () => 'plain string failure', 'plain string failure'],
    ['an empty string', () => '', 'an empty string was thrown (not an Error)'],
    ['null', () => null, 'null was thrown (not an Error)'],
    ['undefined', () => undefined, 'undefined was thrown (not an Error)'],
    ['a number', () => 42, 'a number was thrown (not an Error): 42'],
    ['a symbol', () => Symbol('odd'), 'a symbol was thrown (not an Error): Symbol(odd)'],
    ['a function', () => () => 'secret source', 'a function was thrown (not an Error)'],
    ['a plain object', () => ({ code: 'E_ODD', detail: { deep: [1, 2, 3] } }), 'an object was thrown (not an Error): {"code":"E_ODD","detail":{"deep":[1,2,3]}}'],
    ['an array', () => [1, 'two'], 'an array was thrown (not an Error): [1,"two"]'],
    ['an object whose getters throw', () => ({ get message(): string { throw new Error('getter'); } }), 'an object was thrown (not an Error): [unserializable: getter]'],
    ['a Proxy whose every trap throws', () => unreadable, 'an unreadable value was thrown (not an Error)'],
    ['a huge object', () => ({ blob: 'b'.repeat(HUGE) }), `an object was thrown (not an Error): {"blob":"${'b'.repeat(991)}…`],
  ];

  it.each(thrown)('%s: error.type _OTHER and a safe description, for the model and on the span', async (_label, make, description) => {
    const { agent, seen } = agentWith(() => {
      throw make();
    });
    expect((await agent.run('go')).text).toBe('done');
    expect(seen).toEqual([`Tool "odd" failed: ${description}`]);
    expectCleanTrace('error');
    const span = only(sdk.spans(), 'execute_tool odd');
    expect(span.attributes['error.type']).toBe('_OTHER');
    expect(span.status.message).not.toContain('[object Object]');
  });

  it.each([
    ['an Error whose name is huge', Object.assign(new Error('bad'), { name: 'N'.repeat(10_000) }), '_OTHER'],
    ['an Error whose name holds control characters', Object.assign(new Error('bad'), { name: 'Bad\u001b[2JName' }), '_OTHER'],
    ['an Error declaring a huge errorType', Object.assign(new TypeError('bad'), { errorType: `t-${'x'.repeat(100_000)}` }), 'TypeError'],
    ['an Error declaring a non-string errorType', Object.assign(new RangeError('bad'), { errorType: { not: 'a string' } }), 'RangeError'],
    ['a plain object declaring an errorType', { errorType: 'E_PLAIN' }, 'E_PLAIN'],
  ])('%s: a short error.type, never an unbounded label', async (_label, error, type) => {
    const { agent } = agentWith(() => {
      throw error;
    });
    expect((await agent.run('go')).text).toBe('done');
    expect(only(sdk.spans(), 'execute_tool odd').attributes['error.type']).toBe(type);
  });

  it('from a custom provider: the run fails with _OTHER and the description, never "[object Object]"', async () => {
    const provider = {
      name: 'custom',
      complete: async () => {
        throw { code: 503, retry: false };
      },
    };
    const agent = Agent.create({ provider, model: 'm-odd', id: 'tooler', name: 'Tooler' }).build();
    const failed: { type: string; message: string }[] = [];
    agent.on('footprint.run.failed', (e) => failed.push(e.payload.error));
    const result = await outcomeOf(agent.run('go'));
    expect(result.ok).toBe(false);
    const error = (result as { error: { message: string; runId: string } }).error;
    expect(error.message).toBe(`run ${error.runId} failed in agent "tooler" at stage "call-llm": an object was thrown (not an Error): {"code":503,"retry":false}`);
    expect(failed).toEqual([{ type: '_OTHER', message: 'an object was thrown (not an Error): {"code":503,"retry":false}' }]);
    expect(only(sdk.spans(), 'chat m-odd').attributes['error.type']).toBe('_OTHER');
  });
});

describe('a tool that never settles and no signal', () => {
  it("ends at the tool's own timeoutMs with a timeout result the model sees; its ctx.signal aborts", async () => {
    let reason: unknown;
    const provider = scripted({
      replies: (request): ScriptedReply => {
        const tool = request.messages.find((m) => m.role === 'tool');
        return tool ? `saw: ${tool.content}` : { toolCalls: [{ id: 'h1', name: 'hangs', args: {} }] };
      },
    });
    const agent = Agent.create({ provider, model: 'm-tools', id: 'tooler', name: 'Tooler' })
      .tool({
        name: 'hangs',
        description: 'Never settles',
        inputSchema: { type: 'object' },
        timeoutMs: 50,
        execute: (_args, ctx) => {
          ctx.signal.addEventListener('abort', () => (reason = ctx.signal.reason));
          return new Promise(() => {});
        },
      })
      .build();
    expect((await agent.run('go')).text).toBe('saw: Tool "hangs" did not finish within 50 ms and was stopped.');
    expect((reason as DOMException).name).toBe('TimeoutError');
    const tool = only(sdk.spans(), 'execute_tool hangs');
    expect([tool.attributes['footprint.tool.status'], tool.attributes['error.type'], tool.status.code]).toEqual(['timeout', 'timeout', SpanStatusCode.ERROR]);
    expect(traceProblems(sdk.spans(), { unended: sdk.unended(), traces: 1 })).toEqual([]);
  });

  it('gives a tool that first reads ctx.signal after its deadline a signal already aborted with the TimeoutError', async () => {
    let late: AbortSignal | undefined;
    let lateRead!: Promise<void>;
    const agent = Agent.create({ provider: scripted({ replies: [{ toolCalls: [{ id: 'l', name: 'late', args: {} }] }, 'done'] }), model: 'm', toolTimeoutMs: 20 })
      .tool({
        name: 'late',
        description: 'Reads its signal only after its deadline',
        inputSchema: { type: 'object' },
        execute: (_args, ctx) => {
          lateRead = new Promise((resolve) => setTimeout(() => resolve(void (late = ctx.signal)), 60));
          return new Promise(() => {});
        },
      })
      .build();
    expect((await agent.run('go')).text).toBe('done');
    await lateRead;
    expect([late!.aborted, (late!.reason as DOMException).name, (late!.reason as DOMException).message]).toEqual([true, 'TimeoutError', 'no result within 20 ms']);
  });

  it("ends at the agent's toolTimeoutMs when the tool sets none", async () => {
    const agent = Agent.create({ provider: scripted({ replies: [{ toolCalls: [{ id: 'h', name: 'odd', args: {} }] }, 'done'] }), model: 'm', toolTimeoutMs: 30 })
      .tool({ name: 'odd', description: 'Hangs', inputSchema: { type: 'object' }, execute: () => new Promise(() => {}) })
      .build();
    const ends: string[] = [];
    agent.on('footprint.call.tool_end', (e) => ends.push(`${e.payload.status}: ${e.payload.error?.message}`));
    expect((await agent.run('go')).text).toBe('done');
    expect(ends).toEqual(['timeout: no result within 30 ms']);
  });

  it('defaults to 120 s, with 32 calls per reply at most and 8 at once', () => {
    expect(DEFAULT_TOOL_LIMITS).toEqual({ maxCallsPerReply: 32, concurrency: 8, timeoutMs: 120_000 });
  });
});

/** An agent whose model asks for `count` calls of `work` in one reply, then answers with what it saw. */
function fanOutAgent(count: number, options: { maxToolCallsPerReply?: number; toolConcurrency?: number } = {}) {
  const seen: string[] = [];
  let inFlight = 0;
  const stats = { executed: 0, maxInFlight: 0 };
  /** The call ids of each assistant message the model is sent back. */
  const asked: string[][] = [];
  const provider = scripted({
    name: 'openai',
    replies: (request): ScriptedReply => {
      const tool = request.messages.filter((m) => m.role === 'tool');
      if (tool.length > 0) {
        for (const m of request.messages) if (m.role === 'assistant') asked.push((m.toolCalls ?? []).map((c) => c.id));
        seen.push(...tool.map((m) => messageText(m.content)));
        return 'done';
      }
      return { toolCalls: Array.from({ length: count }, (_, i) => ({ id: `w${i}`, name: 'work', args: { i } })) };
    },
  });
  const agent = Agent.create({ provider, model: 'm-tools', id: 'tooler', name: 'Tooler', ...options })
    .tool({
      name: 'work',
      description: 'Takes a moment',
      inputSchema: { type: 'object' },
      execute: async (args: { i: number }) => {
        stats.executed++;
        stats.maxInFlight = Math.max(stats.maxInFlight, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return `r${args.i}`;
      },
    })
    .build();
  return { agent, seen, stats, asked };
}

describe('a reply asking for more tool calls than the agent runs', () => {
  it('runs the first maxToolCallsPerReply (default 32), 8 at a time; the rest cost one refusal, one span and one message, however many', async () => {
    const { agent, seen, stats, asked } = fanOutAgent(10_000);
    const statuses: Record<string, number> = {};
    agent.on('footprint.call.tool_end', (e) => (statuses[e.payload.status] = (statuses[e.payload.status] ?? 0) + 1));
    expect((await agent.run('go')).text).toBe('done');
    expect(stats).toEqual({ executed: 32, maxInFlight: 8 });
    expect(statuses).toEqual({ ok: 32, too_many_calls: 1 });
    expect(seen).toEqual([
      ...Array.from({ length: 32 }, (_, i) => `r${i}`),
      'Tool calls not run: this reply asked for 10000 tool calls and at most 32 run per reply; calls 33 to 10000 were not run. Ask again for the ones you still need.',
    ]);
    // the model is sent back its reply with the calls that have a result: every call id answered once
    expect(asked).toEqual([Array.from({ length: 33 }, (_, i) => `w${i}`)]);
    const tools = named(sdk.spans(), 'execute_tool work');
    expect(tools).toHaveLength(33);
    const refused = tools.filter((s) => s.attributes['footprint.tool.status'] === 'too_many_calls');
    expect(refused.map((s) => `${s.status.code} ${s.attributes['error.type']} ${s.attributes['gen_ai.tool.call.id']}`)).toEqual([`${SpanStatusCode.ERROR} too_many_calls w32`]);
    expect(traceProblems(sdk.spans(), { unended: sdk.unended(), traces: 1 })).toEqual([]);
  });

  it('takes its own cap and concurrency', async () => {
    const { agent, seen, stats } = fanOutAgent(10, { maxToolCallsPerReply: 6, toolConcurrency: 2 });
    const refused: unknown[] = [];
    agent.on('footprint.call.tool_end', (e) => e.payload.status === 'too_many_calls' && refused.push([e.payload.toolCallId, e.payload.error]));
    expect((await agent.run('go')).text).toBe('done');
    expect(refused).toEqual([['w6', { type: 'too_many_calls', message: 'calls 7 to 10 of 10 in one reply; at most 6 run' }]]);
    expect(stats).toEqual({ executed: 6, maxInFlight: 2 });
    expect(seen).toEqual([
      'r0',
      'r1',
      'r2',
      'r3',
      'r4',
      'r5',
      'Tool calls not run: this reply asked for 10 tool calls and at most 6 run per reply; calls 7 to 10 were not run. Ask again for the ones you still need.',
    ]);
  });

  it('one call past the cap is refused as that one call', async () => {
    const { agent, seen } = fanOutAgent(7, { maxToolCallsPerReply: 6 });
    const refused: unknown[] = [];
    agent.on('footprint.call.tool_end', (e) => e.payload.status === 'too_many_calls' && refused.push([e.payload.toolCallId, e.payload.error]));
    expect((await agent.run('go')).text).toBe('done');
    expect(refused).toEqual([['w6', { type: 'too_many_calls', message: 'call 7 of 7 in one reply; at most 6 run' }]]);
    expect(seen.at(-1)).toBe('Tool call not run: this reply asked for 7 tool calls and at most 6 run per reply. Ask again for the ones you still need.');
  });

  it.each([
    [3, 3, ['start w0', 'start w1', 'start w2', 'end w0', 'end w1', 'end w2']],
    [4, 3, ['start w0', 'start w1', 'start w2', 'end w0', 'start w3', 'end w1', 'end w2', 'end w3']],
  ])('%i calls at a concurrency of %i: as many start at once as it allows, in the model\'s order', async (count, toolConcurrency, expected) => {
    const { agent, stats } = fanOutAgent(count, { toolConcurrency });
    const order: string[] = [];
    agent.on('footprint.call.tool_start', (e) => order.push(`start ${e.payload.toolCallId}`));
    agent.on('footprint.call.tool_end', (e) => order.push(`end ${e.payload.toolCallId}`));
    await agent.run('go');
    expect(stats).toEqual({ executed: count, maxInFlight: toolConcurrency });
    expect(order).toEqual(expected);
  });

  it('a call waiting for a slot is reported when it starts: each span covers the run, not the wait', async () => {
    const { agent } = fanOutAgent(4, { toolConcurrency: 1 });
    const order: string[] = [];
    agent.on('footprint.call.tool_start', (e) => order.push(`start ${e.payload.toolCallId}`));
    agent.on('footprint.call.tool_end', (e) => order.push(`end ${e.payload.toolCallId}`));
    await agent.run('go');
    expect(order).toEqual(['start w0', 'end w0', 'start w1', 'end w1', 'start w2', 'end w2', 'start w3', 'end w3']);
  });
});
