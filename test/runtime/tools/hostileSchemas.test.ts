/**
 * Hostile schemas and arguments against the agent's own JSON Schema tools (issue #38 items 1-3; the
 * same cases from a real MCP server process are test/mcp/schemas.test.ts). Before the fix each of
 * these failed: the checks ran on the main thread (a '^(a+)+$' pattern on 40 'a's and '!' froze the
 * process, uniqueItems over 20,000 objects blocked it for seconds), a schema referring to itself
 * overflowed the stack and failed the run, and one Ajv instance shared by every agent refused a
 * second build of a schema with an $id, accepted a refused schema the second time, and kept every
 * schema it compiled.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { Agent, ConfigError, scripted, type Tool } from '../../../src/index.js';
import { SCHEMA_CHECK_DEADLINE_MS } from '../../../src/runtime/tools/schemaWorker.js';
import { callOnce } from './support.js';

/** The longest the event loop went without a turn while `work` ran (a 5 ms timer's lateness). */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs };
  } finally {
    clearInterval(timer);
  }
}

const echo = (inputSchema: Record<string, unknown>): Tool => ({ name: 'echo', description: 'Echoes', inputSchema, execute: () => 'ran' });
const redos = echo({ type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } }, required: ['word'] });
/**
 * Blocking the event loop longer than this is a freeze. Generous: these machines are shared (load 20
 * on 2 cores), where a 5 ms timer measured up to 150 ms late with nothing blocking; before the fix the
 * pattern blocked for good and uniqueItems for about 8 s.
 */
const STALL_BOUND_MS = 750;

describe('item 1: a check that would take forever is stopped at its deadline, off the main thread', () => {
  it("pattern '^(a+)+$' against 40 'a's and '!': an error result the model sees, the process never stalls, another run answers meanwhile", async () => {
    const other = Agent.create({ provider: scripted({ replies: ['other answered'] }), model: 'm' }).build();
    let otherDoneAt = 0;
    const started = performance.now();
    const { result: call, stallMs } = await longestStall(async () => {
      const hostile = callOnce(redos, { word: `${'a'.repeat(40)}!` });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await other.run('hi');
      otherDoneAt = performance.now() - started;
      return hostile;
    });
    expect(call.end.status).toBe('invalid_args');
    expect(call.end.error?.message).toBe(`the arguments could not be checked: the check took longer than ${SCHEMA_CHECK_DEADLINE_MS} ms and was stopped`);
    expect(call.toolMessage).toBe(`Invalid arguments for tool "echo": ${call.end.error!.message}. Fix them and call again.`);
    expect(stallMs).toBeLessThan(STALL_BOUND_MS);
    expect(otherDoneAt).toBeLessThan(SCHEMA_CHECK_DEADLINE_MS);
    // the worker that was stopped is replaced: the next check is made, and answers
    expect((await callOnce(redos, { word: 'aaa' })).end.status).toBe('ok');
    expect((await callOnce(redos, { word: 'aab' })).end.error?.message).toBe('args/word must match pattern "^(a+)+$"');
  });

  it('uniqueItems over 20,000 objects: bounded by the deadline, the process never stalls', async () => {
    const unique = echo({ type: 'object', properties: { rows: { type: 'array', uniqueItems: true, items: { type: 'object' } } } });
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `row ${i}` }));
    const started = performance.now();
    const { result: call, stallMs } = await longestStall(() => callOnce(unique, { rows }));
    expect(performance.now() - started).toBeLessThan(SCHEMA_CHECK_DEADLINE_MS + 4_000);
    expect(stallMs).toBeLessThan(STALL_BOUND_MS);
    expect([call.end.status, call.end.error?.message]).toEqual(['invalid_args', `the arguments could not be checked: the check took longer than ${SCHEMA_CHECK_DEADLINE_MS} ms and was stopped`]);
    // 200 of them are checked, and a duplicate found
    const few = await callOnce(unique, { rows: [...rows.slice(0, 199), { id: 0, name: 'row 0' }] });
    expect(few.end.error?.message).toBe('args/rows must NOT have duplicate items (items ## 0 and 199 are identical)');
  });
});

describe('item 2: a schema that refers to itself', () => {
  it('{ type: object, $ref: "#" } builds, and each call is an error result the model sees, not a failed run', async () => {
    const call = await callOnce(echo({ type: 'object', $ref: '#' }), {});
    expect(call.end.status).toBe('invalid_args');
    expect(call.end.error?.message).toBe('the arguments could not be checked: the schema refers to itself without end (Maximum call stack size exceeded)');
  });
});

describe('item 3: no validator shared by every agent', () => {
  const build = (tool: Tool) => Agent.create({ provider: scripted({ replies: ['x'] }), model: 'm' }).tool(tool).build();

  it('a schema with an $id builds again and again (a per-request agent factory), each agent validating', async () => {
    const withId = () => echo({ $id: 'https://tools.example/echo', type: 'object', properties: { id: { type: 'string' } } });
    build(withId());
    build(withId());
    expect((await callOnce(withId(), { id: 'x' })).end.status).toBe('ok');
    expect((await callOnce(withId(), { id: 7 })).end.error?.message).toBe('args/id must be string');
  });

  it('a schema refused once is refused again', () => {
    const refused = echo({ type: 'object', properties: { name: { type: 'string', maxLength: -1 } } });
    const message = 'agent "agent": tool "echo": its inputSchema cannot be used: it is not a valid draft-07 JSON Schema: schema/properties/name/maxLength must be >= 0';
    expect(() => build(refused)).toThrow(new ConfigError(message));
    expect(() => build(refused)).toThrow(new ConfigError(message));
    expect(() => build(echo({ ...refused.inputSchema as Record<string, unknown> }))).toThrow(new ConfigError(message));
  });

  it('10,000 builds of a per-request factory (new tool objects, 50 schemas with $ids): the heap after GC grows by less than 4 MB (the shared validator kept 2.7 KB a build)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const buildOne = (i: number) => build(echo({ $id: `https://tools.example/echo/${i % 50}`, type: 'object', properties: { id: { type: 'string', pattern: `^o-${i % 50}$` } } }));
    for (let i = 0; i < 500; i++) buildOne(i);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10_000; i++) buildOne(i);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(grown).toBeLessThan(4 * 1024 * 1024);
  }, 120_000);
});
