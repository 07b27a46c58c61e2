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
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, RunCancelledError, scripted, tracingFailures, type ScriptedReply } from '../../src/index.js';
import { MAX_TOOL_RESULT_CHARS } from '../../src/runtime/agent/toolResults.js';
import { named, only, outcomeOf } from './support/runs.js';
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
        seen.push(tool[tool.length - 1]!.content);
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
    expect(await agent.run('go')).toBe('done');
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
    expect(await agent.run('go')).toBe('done');
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
    expect(await agent.run('go')).toBe('done');
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
    expect(await agent.run('go')).toBe('done');
    expect(executed).toBe(0);
    expect(seen[0]).toMatch(/^Invalid arguments for tool "odd": .+\. Fix them and call again\.$/);
    expect(seen[0]!.length).toBeLessThanOrEqual(MODEL_TEXT_CAP);
    expectCleanTrace('invalid_args');
    expect(only(sdk.spans(), 'execute_tool odd').attributes['error.type']).toBe('invalid_args');
  });

  it('huge valid arguments: executed, and recorded within the cap', async () => {
    const { agent } = agentWith((args) => String(args.note).length, { note: 'w'.repeat(1_000_000) });
    expect(await agent.run('go')).toBe('done');
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
