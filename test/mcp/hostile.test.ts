/**
 * Hostile MCP servers and bad options, against real server processes (the desk fixture over stdio
 * and Streamable HTTP, and a hand-written hostile server over stdio): timeouts that cannot work are
 * refused by name; credentials in an MCP URL, its headers and the error bodies that echo them never
 * reach an error message or a span; a 401/403 is its own kind with its status; a server's error text
 * is content (not on the client span without capture); a server's self-declared name and invented
 * error codes never become metric labels unbounded; initialize is recorded under the same server name
 * as the rest; a reply over the stdio SDK's line limit is "too large", not a timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { ConfigError } from '../../src/index.js';
import { connectMcp, McpCallError, McpConnectError, type McpConnection } from '../../src/mcp/index.js';
import { compiled } from '../support/compiled.js';
import { pointsOf, type JsonMetricsRequest } from '../telemetry/otlpJson.js';
import { httpServer, startWorld, stdioServer, until, type World, SLOW_START } from '../support/mcp/world.js';

const HOSTILE = compiled(resolve(import.meta.dirname, 'fixtures/hostileServer.ts'));

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.stop();
});

/** A span as text, to search for secrets (its times are bigints). */
const text = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

const rejection = <T>(work: Promise<T>) =>
  work.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );

/** Calls the connection's tool directly, as the agent's tool runner does. */
function call(mcp: McpConnection, name: string, args: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<unknown> {
  const [tool] = mcp.tools([name]);
  return Promise.resolve(tool!.execute(args, { toolCallId: 'c1', agentId: 'a', signal: AbortSignal.timeout(timeoutMs), pause: async () => undefined }));
}

function hostile(env: Record<string, string> = {}) {
  return { command: process.execPath, args: [HOSTILE], env: { ...world.childEnv, ...env }, stderr: 'inherit' as const };
}

describe('connectMcp timeouts', () => {
  it.each([
    ['callTimeoutMs', Number.NaN, 'callTimeoutMs must be a whole number from 1 to 2147483647, or Infinity for no limit (got NaN)'],
    ['callTimeoutMs', -5, 'callTimeoutMs must be a whole number from 1 to 2147483647, or Infinity for no limit (got -5)'],
    ['connectTimeoutMs', Number.NaN, 'connectTimeoutMs must be a whole number from 1 to 2147483647, or Infinity for no limit (got NaN)'],
    ['connectTimeoutMs', 0, 'connectTimeoutMs must be a whole number from 1 to 2147483647, or Infinity for no limit (got 0)'],
  ])('%s %s: a ConfigError naming the option, before anything starts', async (field, value, message) => {
    const error = await rejection(connectMcp({ command: '/nonexistent/never-started' }, { [field]: value }));
    expect(error).toBeInstanceOf(ConfigError);
    expect([error.message, (error as ConfigError).field]).toEqual([`connectMcp: ${message}`, field]);
  });

  it('callTimeoutMs Infinity is no limit: calls answer', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const mcp = await connectMcp(stdioServer(world), { connectTimeoutMs: Infinity, callTimeoutMs: Infinity });
    try {
      expect(await call(mcp, 'lookup_order', { id: '7' })).toBe('order 7: shipped');
    } finally {
      process.off('warning', onWarning);
      await mcp.close();
    }
    expect(warnings).toEqual([]);
  }, 60_000);
});

describe('credentials of an MCP URL and its headers', () => {
  const PASSWORD = 'pw-hunter2-secret';
  const KEY = 'key-0a9b8c7d6e';
  const TOKEN = 'tok-live-5f4e3d2c1b';

  it('a 401 (no credentials the server takes): McpConnectError unauthorized with the status; no password, key or body in its message or the initialize span', async () => {
    const { url, child } = await httpServer(world, { MCP_FIXTURE_TOKEN: 'the-right-token' });
    try {
      const withSecrets = new URL(url);
      withSecrets.username = 'alice';
      withSecrets.password = PASSWORD;
      withSecrets.searchParams.set('api_key', KEY);
      const error = (await rejection(connectMcp({ url: withSecrets.href }, { ...SLOW_START, name: 'locked' }))) as McpConnectError;
      expect(error).toBeInstanceOf(McpConnectError);
      // userinfo travels as Basic authorization, which this server does not take: 403
      expect([error.errorType, error.status, error.message]).toEqual(['unauthorized', 403, 'MCP server "locked": HTTP 403 (not authorized: check the credentials of its URL or headers)']);
      const noHeader = (await rejection(connectMcp({ url }, { ...SLOW_START, name: 'locked' }))) as McpConnectError;
      expect([noHeader.errorType, noHeader.status]).toEqual(['unauthorized', 401]);
      const spans = await until(world, (all) => all.filter((s) => s.name === 'initialize' && s.attributes['error.type'] === 'unauthorized').length === 2);
      const statuses = spans.filter((s) => s.name === 'initialize' && s.attributes['error.type'] === 'unauthorized').map(text);
      expect(statuses).toHaveLength(2);
      for (const written of [...statuses, error.message, error.stack ?? '']) {
        for (const secret of [PASSWORD, KEY, Buffer.from(`alice:${PASSWORD}`).toString('base64')]) expect(written).not.toContain(secret);
      }
    } finally {
      child.kill();
    }
  }, 60_000);

  it('a 403 whose body echoes the bearer token: the token is in no message and no span, capture on or off', async () => {
    const { url, child } = await httpServer(world, { MCP_FIXTURE_TOKEN: 'the-right-token' });
    try {
      for (const captureContent of [false, true]) {
        const error = (await rejection(connectMcp({ url, headers: { Authorization: `Bearer ${TOKEN}` } }, { ...SLOW_START, name: 'echo', captureContent }))) as McpConnectError;
        expect([error.errorType, error.status]).toEqual(['unauthorized', 403]);
        expect(`${error.message}\n${error.stack}`).not.toContain(TOKEN);
      }
      const spans = await until(world, (all) => all.filter((s) => s.name === 'initialize' && s.attributes['error.type'] === 'unauthorized').length >= 4);
      expect(text(spans)).not.toContain(TOKEN);
    } finally {
      child.kill();
    }
  }, 60_000);
});

describe('a hostile server', () => {
  it("its JSON-RPC error text is content: the model reads it, the client span's status does not carry it without capture", async () => {
    const mcp = await connectMcp(hostile(), { ...SLOW_START, captureContent: false });
    try {
      const error = (await rejection(call(mcp, 'lookup_customer'))) as McpCallError;
      expect([error.errorType, error.message]).toEqual(['-32602', 'tools/call failed: no order for alice@example.com']);
    } finally {
      await mcp.close();
    }
    const spans = await until(world, (all) => all.some((s) => s.name === 'tools/call lookup_customer'));
    const client = spans.find((s) => s.name === 'tools/call lookup_customer')!;
    expect(text(client)).not.toContain('alice@example.com');
    expect([client.attributes['error.type'], client.attributes['rpc.response.status_code']]).toEqual(['-32602', '-32602']);
  }, 60_000);

  it('its invented error codes are one error.type _OTHER on the metric; its self-declared name is no label; initialize is recorded under the same name as the rest', async () => {
    const name = `evil\u001b[2J${'n'.repeat(300)}`;
    const mcp = await connectMcp(hostile({ HOSTILE_NAME: name }), SLOW_START);
    try {
      for (const code of [-31001, -31002, -31003, 12345]) {
        const error = (await rejection(call(mcp, 'invent', { code }))) as McpCallError;
        expect(error.errorType).toBe('_OTHER');
      }
      const known = (await rejection(call(mcp, 'invent', { code: -32601 }))) as McpCallError;
      expect(known.errorType).toBe('-32601');
      expect(mcp.name).toBe('node');
    } finally {
      await mcp.close();
    }
    await world.telemetry.forceFlush();
    const points = world.receiver
      .of('/v1/metrics')
      .flatMap((r) => pointsOf(JSON.parse(r.body.toString('utf8')) as JsonMetricsRequest, 'mcp.client.operation.duration'))
      .filter((p) => p.attributes['footprint.mcp.server'] === 'node' || String(p.attributes['footprint.mcp.server']).startsWith('evil'));
    const series = new Set(points.map((p) => `${p.attributes['footprint.mcp.server']} ${p.attributes['mcp.method.name']} ${p.attributes['error.type'] ?? ''}`));
    expect([...series].sort()).toEqual(['node initialize ', 'node tools/call -32601', 'node tools/call _OTHER', 'node tools/list ']);
  }, 60_000);

  it('a reply over the stdio line limit: a too_large failure at once, not a timeout', async () => {
    const mcp = await connectMcp(hostile(), { ...SLOW_START, callTimeoutMs: 20_000 });
    const started = Date.now();
    try {
      const error = (await rejection(call(mcp, 'huge'))) as McpCallError;
      expect([error.errorType, error.message]).toEqual(['too_large', 'tools/call failed: the reply is larger than the 10485760 bytes one stdio message may have']);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
