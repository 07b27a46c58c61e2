/**
 * A hostile client of a traced server: the real desk fixture (traceMcpServer, its own OTel SDK) over
 * stdio, spoken to by hand in JSON-RPC. The client asks for a protocol version with an escape sequence
 * in it, calls 30 tools and 30 methods it invents with 200-character names, cancels a call in flight,
 * and reuses a request id while the first request with it is in flight. The server's spans record the
 * negotiated version; every server span ends (the cancelled one as cancelled, at the cancel); the
 * server metric's labels stay within what the server knows; span names stay short.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pointsOf, type JsonMetricsRequest } from '../telemetry/otlpJson.js';
import { FIXTURE, startWorld, until, type World } from '../support/mcp/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.stop();
});

it('a hostile client: negotiated version recorded, every server span ended, metric labels bounded, span names short', async () => {
  const child = spawn(process.execPath, [FIXTURE, 'stdio'], { env: { ...process.env, ...world.childEnv }, stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = new Map<number, (message: unknown) => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number };
    if (typeof message.id === 'number') answers.get(message.id)?.(message);
  });
  const send = (message: Record<string, unknown>) => child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      answers.set(id, resolve);
      send({ id, method, params });
    });

  const asked = '1999-01-01\u001b[2J';
  const init = (await request(1, 'initialize', { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'hostile', version: '0' } })) as { result: { protocolVersion: string } };
  const negotiated = init.result.protocolVersion;
  expect(negotiated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  send({ method: 'notifications/initialized' });
  await request(2, 'tools/list');
  await request(3, 'tools/call', { name: 'lookup_order', arguments: { id: '7' } });
  const long = 'z'.repeat(200);
  for (let i = 0; i < 30; i++) await request(10 + i, 'tools/call', { name: `${long}${i}`, arguments: {} });
  for (let i = 0; i < 30; i++) await request(50 + i, `x/${long}${i}`);
  // a call cancelled by the client: the server never answers it
  send({ id: 100, method: 'tools/call', params: { name: 'hang', arguments: {} } });
  await new Promise((r) => setTimeout(r, 200));
  send({ method: 'notifications/cancelled', params: { requestId: 100, reason: 'timed out' } });
  // an id reused while its first request is in flight
  send({ id: 200, method: 'tools/call', params: { name: 'hang', arguments: {} } });
  await request(200, 'tools/call', { name: 'lookup_order', arguments: { id: '8' } });
  await new Promise((r) => setTimeout(r, 200));
  child.stdin!.end();
  await new Promise((r) => child.once('exit', r));

  const spans = (await until(world, (all) => all.some((s) => s.service === 'mcp-desk' && s.attributes['jsonrpc.request.id'] === '100'), 10_000)).filter((s) => s.service === 'mcp-desk' && s.kind === 2);
  // every request got its span, each ended and exported: 3 + 30 + 30 + the cancelled one + both of id 200
  expect(spans).toHaveLength(66);
  expect(new Set(spans.map((s) => s.attributes['mcp.protocol.version']))).toEqual(new Set([negotiated]));
  const cancelled = spans.find((s) => s.attributes['jsonrpc.request.id'] === '100')!;
  expect([cancelled.name, cancelled.attributes['error.type'], cancelled.status]).toEqual(['tools/call hang', 'cancelled', 2]);
  expect(spans.filter((s) => s.attributes['jsonrpc.request.id'] === '200').map((s) => s.name).sort()).toEqual(['tools/call hang', 'tools/call lookup_order']);
  expect(Math.max(...spans.map((s) => s.name.length))).toBeLessThanOrEqual(160);

  const points = world.receiver.of('/v1/metrics').flatMap((r) => pointsOf(JSON.parse(r.body.toString('utf8')) as JsonMetricsRequest, 'mcp.server.operation.duration'));
  const labels = new Set(points.map((p) => `${p.attributes['mcp.method.name']} ${p.attributes['gen_ai.tool.name'] ?? '-'}`));
  expect([...labels].sort()).toEqual(['_OTHER -', 'initialize -', 'tools/call _OTHER', 'tools/call hang', 'tools/call lookup_order', 'tools/list -']);
}, 60_000);
