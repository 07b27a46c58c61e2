/**
 * Schemas from MCP servers, against real server processes: a server whose tool is declared with zod
 * (its tools/list says "$schema": draft 2020-12) serves an agent end to end (issue #34 item 2), and a
 * hostile server's schemas (issue #38 items 1-4, test/mcp/fixtures/schemaServer.ts) over stdio and
 * over Streamable HTTP. Before the fix, connecting to the hostile server failed for every tool (the
 * SDK refused the whole tools/list for the one tool whose type is "string"); with that tool removed,
 * the pattern froze the process, the self-referencing schema failed the run with a stack overflow, and
 * a second connection's agent could not be built ("schema with key or id … already exists").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../../src/mcp/index.js';
import { SCHEMA_CHECK_DEADLINE_MS } from '../../src/runtime/tools/schemaWorker.js';
import { compiled } from '../support/compiled.js';
import { callOnce } from '../runtime/tools/support.js';
import { SLOW_START, startWorld, until, type FlatSpan, type World } from '../support/mcp/world.js';

const SCHEMA_SERVER = compiled(resolve(import.meta.dirname, 'fixtures/schemaServer.ts'));
const ZOD_SERVER = compiled(resolve(import.meta.dirname, 'fixtures/zodServer.ts'));

const NOT_OBJECT = 'its inputSchema must describe an object (type "object"), as tools take named arguments; it has type "string"';
const UNCHECKED = `the arguments could not be checked: the check took longer than ${SCHEMA_CHECK_DEADLINE_MS} ms and was stopped`;

let world: World;
const children: ChildProcess[] = [];
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  for (const child of children) child.kill();
  await world.stop();
});

/** The process warnings FOOTPRINT_MCP_TOOL_REFUSED emitted while `work` ran. */
async function refusalWarnings<T>(work: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const listener = (warning: Error & { code?: string }) => {
    if (warning.code === 'FOOTPRINT_MCP_TOOL_REFUSED') warnings.push(warning.message);
  };
  process.on('warning', listener);
  try {
    const result = await work();
    // process warnings are emitted on the next tick
    await new Promise((done) => setImmediate(done));
    return { result, warnings };
  } finally {
    process.off('warning', listener);
  }
}

async function httpUrl(): Promise<string> {
  const child = spawn(process.execPath, [SCHEMA_SERVER, 'http'], { env: { ...process.env, ...world.childEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const port = await new Promise<string>((done, fail) => {
    child.stdout!.once('data', (chunk: Buffer) => done(String(chunk).trim()));
    child.once('exit', (code) => fail(new Error(`the schema server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

const transports = {
  stdio: async () => ({ command: process.execPath, args: [SCHEMA_SERVER, 'stdio'], env: { ...world.childEnv } }),
  'Streamable HTTP': async () => ({ url: await httpUrl() }),
};

describe('an MCP server whose tools are declared with zod', () => {
  it('lists draft 2020-12 schemas; an agent calls its tool end to end, a wrong call is an error result', async () => {
    const mcp = await connectMcp({ command: process.execPath, args: [ZOD_SERVER], env: { ...world.childEnv } }, SLOW_START);
    const [lookup] = mcp.tools(['lookup_order']);
    expect(lookup!.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { id: { type: 'string', pattern: '^o-\\d+$' }, detail: { type: 'string', enum: ['short', 'full'] } },
      required: ['id'],
    });
    const valid = await callOnce(lookup!, { id: 'o-42', detail: 'full' });
    expect([valid.end.status, valid.toolMessage, valid.offered[0]!.inputSchema]).toEqual(['ok', 'order o-42: shipped on 2026-12-01', lookup!.inputSchema]);
    const invalid = await callOnce(lookup!, { id: 'o-x', detail: 'long' });
    expect([invalid.end.status, invalid.end.error?.message]).toEqual(['invalid_args', 'args/id must match pattern "^o-\\d+$", args/detail must be equal to one of the allowed values']);
    await mcp.close();
  }, 60_000);
});

describe.each(Object.entries(transports))('a hostile server’s schemas, over %s', (transport, serverOf) => {
  let mcp: McpConnection;
  let connectWarnings: string[];
  beforeAll(async () => {
    const server = await serverOf();
    ({ result: mcp, warnings: connectWarnings } = await refusalWarnings(() => connectMcp(server, SLOW_START)));
  }, 60_000);
  afterAll(async () => {
    await mcp.close();
  });

  it('item 4: the tool whose type is not "object" is refused, the others offered; said in a warning, in refused and on the tools/list span', async () => {
    expect(mcp.tools().map((tool) => tool.name)).toEqual(['redos', 'unique', 'self_ref', 'with_id', 'plain', 'relist']);
    expect(mcp.refused).toEqual([{ name: 'not_object', reason: NOT_OBJECT }]);
    expect(connectWarnings).toEqual([`footprint-otel: MCP server "schema-tools" lists tool "not_object": ${NOT_OBJECT}; it is left out, the server's other tools are offered`]);
    const isList = (s: FlatSpan) => s.service === 'desk-agent' && s.name === 'tools/list' && s.attributes['network.transport'] === (transport === 'stdio' ? 'pipe' : 'tcp') && s.attributes['footprint.mcp.tools.refused'] !== undefined;
    const list = (await until(world, (all) => all.some(isList))).find(isList)!;
    expect([list.status, list.attributes['footprint.mcp.tools.refused']]).toEqual([0, JSON.stringify([`tool "not_object": ${NOT_OBJECT}`])]);
  });

  it("item 1: pattern '^(a+)+$' on 40 'a's and '!', and uniqueItems over 20,000 objects: error results at the deadline; a valid call reaches the server", async () => {
    const [redos, unique] = mcp.tools(['redos', 'unique']);
    const stuck = await callOnce(redos!, { word: `${'a'.repeat(40)}!` });
    expect([stuck.end.status, stuck.end.error?.message]).toEqual(['invalid_args', UNCHECKED]);
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i }));
    expect((await callOnce(unique!, { rows })).end.error?.message).toBe(UNCHECKED);
    expect((await callOnce(redos!, { word: 'aaaa' })).toolMessage).toBe('ran redos');
  }, 60_000);

  it('item 2: the self-referencing schema is an error result the model sees, the run answers', async () => {
    const call = await callOnce(mcp.tools(['self_ref'])[0]!, {});
    expect([call.end.status, call.end.error?.message]).toEqual(['invalid_args', 'the arguments could not be checked: the schema refers to itself without end (Maximum call stack size exceeded)']);
  });

  it('item 3: a schema with an $id, over a second connection to the same server: both agents build and call it', async () => {
    const again = await connectMcp(await serverOf(), SLOW_START);
    const first = await callOnce(mcp.tools(['with_id'])[0]!, { id: 'x' });
    const second = await callOnce(again.tools(['with_id'])[0]!, { id: 'y' });
    expect([first.toolMessage, second.toolMessage]).toEqual(['ran with_id', 'ran with_id']);
    expect((await callOnce(again.tools(['with_id'])[0]!, { id: 3 })).end.error?.message).toBe('args/id must be string');
    await again.close();
  }, 60_000);

  it('item 4: a tools/list_changed reads the new list, the bad tool still refused, no second warning for it', async () => {
    const { warnings } = await refusalWarnings(async () => {
      expect((await callOnce(mcp.tools(['relist'])[0]!, {})).toolMessage).toBe('ran relist');
    });
    expect(mcp.tools().map((tool) => tool.name)).toEqual(['redos', 'unique', 'self_ref', 'with_id', 'relist', 'plain_v2']);
    expect(mcp.refused).toEqual([{ name: 'not_object', reason: NOT_OBJECT }]);
    expect(warnings).toEqual([]);
  });
});
