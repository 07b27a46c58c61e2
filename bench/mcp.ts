/**
 * MCP benchmark (npm run bench:mcp [calls]): what an MCP tool call over stdio costs next to the same
 * tool in-process, and what tracing adds to it, as ratios measured in one process, interleaved round
 * by round (the machine is shared: never read one time alone). Two server processes never perform
 * alike on a loaded machine (which core, which neighbour), so every comparison below is made on ONE
 * connection or in ONE process:
 *   1. client side, over stdio, one connection: footprint-otel/mcp's tool with no OTel SDK registered
 *      (the tracer and propagator are no-ops: the SDK's call and our thin wrapper) against the same
 *      tool with the SDK registered (client span, _meta injection, the histogram); the API's globals
 *      are swapped between rounds;
 *   2. server side, in this process over the SDK's in-memory transport: an McpServer with and
 *      without traceMcpServer (server span, _meta extraction, the histogram), same tool, same SDK;
 *   3. the same function in-process, for scale.
 * Tracing's cost = (1) traced - untraced + (2) traced - untraced, against the untraced stdio call.
 * Target: at most 10%.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import path from 'node:path';
import type { ToolContext } from '../src/index.js';
import { connectMcp, traceMcpServer } from '../src/mcp/index.js';

const CALLS = Number(process.argv[2] ?? 3000);
const ROUNDS = 15;
const PER_ROUND = Math.max(1, Math.floor(CALLS / ROUNDS));
const TARGET = 0.1;
const FIXTURE = path.resolve(import.meta.dirname, '../test/mcp/fixtures/deskServer.ts');

const noopExporter: SpanExporter = { export: (_spans: ReadableSpan[], done) => done({ code: 0 }), shutdown: async () => {} };
const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(noopExporter)] });
const propagator = new W3CTraceContextPropagator();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const setTracing = (on: boolean) => {
  trace.disable();
  propagation.disable();
  if (on) {
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(propagator);
  }
};

// 1. one stdio connection to the fixture server with no OTel of its own
const stdio = await connectMcp({ command: process.execPath, args: ['--import', 'tsx', FIXTURE, 'stdio'], env: { MCP_FIXTURE_OTEL: 'none' } }, { connectTimeoutMs: 60_000 });
const [stdioTool] = stdio.tools(['lookup_order']);
const ctx: ToolContext = { toolCallId: 'b', agentId: 'bench', signal: new AbortController().signal, pause: async () => undefined };

// 2. two in-memory servers, one traced
async function inMemory(traced: boolean): Promise<Client> {
  const server = new McpServer({ name: 'desk-tools', version: '1.0.0' });
  const args = fromJsonSchema<{ id: string }>({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
  server.registerTool('lookup_order', { description: 'Looks an order up by id', inputSchema: args }, async ({ id }) => ({ content: [{ type: 'text' as const, text: `order ${id}: shipped` }] }));
  if (traced) traceMcpServer(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  return client;
}
const plainServer = await inMemory(false);
const tracedServer = await inMemory(true);
const meta = () => {
  const carrier: Record<string, string> = {};
  const span = trace.getTracer('bench').startSpan('caller');
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  span.end();
  return carrier;
};

type Mode = 'in-process' | 'stdio untraced' | 'stdio traced' | 'server untraced' | 'server traced';
const call: Record<Mode, (id: string) => Promise<unknown>> = {
  'in-process': async (id) => `order ${id}: shipped`,
  'stdio untraced': (id) => Promise.resolve(stdioTool!.execute({ id }, ctx)),
  'stdio traced': (id) => Promise.resolve(stdioTool!.execute({ id }, ctx)),
  'server untraced': (id) => plainServer.callTool({ name: 'lookup_order', arguments: { id }, _meta: meta() }),
  'server traced': (id) => tracedServer.callTool({ name: 'lookup_order', arguments: { id }, _meta: meta() }),
};
const tracing: Record<Mode, boolean> = { 'in-process': false, 'stdio untraced': false, 'stdio traced': true, 'server untraced': true, 'server traced': true };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function round(mode: Mode): Promise<number> {
  setTracing(tracing[mode]);
  const times: number[] = [];
  for (let i = 0; i < PER_ROUND; i++) {
    const started = performance.now();
    await call[mode](String(i));
    times.push(performance.now() - started);
  }
  return median(times);
}

const modes = Object.keys(call) as Mode[];
for (const mode of modes) {
  setTracing(tracing[mode]);
  for (let i = 0; i < 200; i++) await call[mode](String(i));
}
const medians = Object.fromEntries(modes.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
const clientAdded: number[] = [];
const serverAdded: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const got = {} as Record<Mode, number>;
  for (let k = 0; k < modes.length; k++) {
    const mode = modes[(k + r) % modes.length]!;
    got[mode] = await round(mode);
  }
  for (const mode of modes) medians[mode].push(got[mode]);
  // both shares relative to this round's untraced stdio call
  clientAdded.push((got['stdio traced'] - got['stdio untraced']) / got['stdio untraced']);
  serverAdded.push((got['server traced'] - got['server untraced']) / got['stdio untraced']);
}
setTracing(false);

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const m = Object.fromEntries(modes.map((mode) => [mode, median(medians[mode])])) as Record<Mode, number>;
const client = median(clientAdded);
const server = median(serverAdded);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const range = (xs: number[]) => `${pct(Math.min(...xs))} to ${pct(Math.max(...xs))}`;
console.log(`MCP tool call: stdio vs in-process, traced vs untraced (${ROUNDS} interleaved rounds x ${PER_ROUND} calls per mode; medians of round medians)`);
console.log(`  in-process call                         ${us(m['in-process'])}`);
console.log(`  stdio call, untraced (one connection)   ${us(m['stdio untraced'])}   = ${(m['stdio untraced'] / m['in-process']).toFixed(0)}x in-process: the MCP transport`);
console.log(`  stdio call, client side traced          ${us(m['stdio traced'])}`);
console.log(`  server, in-memory, untraced / traced    ${us(m['server untraced'])} / ${us(m['server traced'])}`);
console.log(`  ours, client side (span, _meta)         +${pct(client)} of the untraced stdio call (per round: ${range(clientAdded)})`);
console.log(`  ours, server side (span, extraction)    +${pct(server)} of the untraced stdio call (per round: ${range(serverAdded)})`);
console.log(`  tracing adds ${pct(client + server)} to an untraced stdio call; target at most ${pct(TARGET)}: ${client + server <= TARGET ? 'MET' : 'MISSED'}`);

await stdio.close();
await plainServer.close();
await tracedServer.close();
await provider.shutdown();
