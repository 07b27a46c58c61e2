/**
 * MCP benchmark (npm run bench:mcp [calls]): what an MCP tool call over stdio costs next to the same
 * tool in-process, and what tracing adds to it, as ratios measured in one process, interleaved round
 * by round (the machine is shared: never read one time alone).
 *   in-process  the fixture's lookup as a local function
 *   untraced    the SDK's own client.callTool to the fixture server with no OTel at all (no
 *               traceMcpServer, no SDK in the server process)
 *   traced      footprint-otel/mcp's tool (client span, _meta injection) with an OTel SDK registered
 *               (BatchSpanProcessor), to the fixture server with traceMcpServer and its own SDK
 *               (startTelemetry, OTLP to a local receiver): the server span and its child span
 * Target: traced adds at most 10% to an untraced stdio call (median of the per-round medians).
 */
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { trace } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { connectMcp } from '../src/mcp/index.js';
import type { ToolContext } from '../src/index.js';
import { startReceiver } from './receiver.js';

const CALLS = Number(process.argv[2] ?? 3000);
const ROUNDS = 15;
const PER_ROUND = Math.max(1, Math.floor(CALLS / ROUNDS));
const TARGET = 0.1;
const FIXTURE = path.resolve(import.meta.dirname, '../test/mcp/fixtures/deskServer.ts');

const noopExporter: SpanExporter = { export: (_spans: ReadableSpan[], done) => done({ code: 0 }), shutdown: async () => {} };
const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(noopExporter)] });
trace.setGlobalTracerProvider(provider);
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

const receiver = await startReceiver();
const serverEnv = (traced: boolean): Record<string, string> => ({
  OTEL_SERVICE_NAME: 'mcp-desk',
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_METRIC_EXPORT_INTERVAL: '3600000',
  MCP_FIXTURE_OTEL: traced ? 'traced' : 'sdk',
});

// untraced: the SDK alone, both sides
const raw = new Client({ name: 'bench', version: '1' });
await raw.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', FIXTURE, 'stdio'], env: { ...process.env, ...serverEnv(false) } as Record<string, string> }));
await raw.listTools(); // as connectMcp does, so both clients hold the same tool cache
// traced: footprint-otel/mcp's tool, both sides traced
const traced = await connectMcp({ command: process.execPath, args: ['--import', 'tsx', FIXTURE, 'stdio'], env: serverEnv(true) }, { connectTimeoutMs: 60_000 });
const [tracedTool] = traced.tools(['lookup_order']);
// client side alone: footprint-otel/mcp's traced tool to the untraced server
const clientOnly = await connectMcp({ command: process.execPath, args: ['--import', 'tsx', FIXTURE, 'stdio'], env: serverEnv(false) }, { connectTimeoutMs: 60_000 });
const [clientOnlyTool] = clientOnly.tools(['lookup_order']);
const ctx: ToolContext = { toolCallId: 'b', agentId: 'bench', pause: async () => undefined };
const inProcess = async (id: string) => `order ${id}: shipped`;

type Mode = 'in-process' | 'untraced' | 'client-traced' | 'traced';
const call: Record<Mode, (id: string) => Promise<unknown>> = {
  'in-process': (id) => inProcess(id),
  untraced: (id) => raw.callTool({ name: 'lookup_order', arguments: { id } }),
  'client-traced': (id) => Promise.resolve(clientOnlyTool!.execute({ id }, ctx)),
  traced: (id) => Promise.resolve(tracedTool!.execute({ id }, ctx)),
};

async function round(mode: Mode): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < PER_ROUND; i++) {
    const started = performance.now();
    await call[mode](String(i));
    times.push(performance.now() - started);
  }
  return median(times);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// warm-up, then interleaved rounds (order rotated so no mode always runs first)
for (const mode of ['untraced', 'client-traced', 'traced'] as const) for (let i = 0; i < 200; i++) await call[mode](String(i));
const modes: Mode[] = ['in-process', 'untraced', 'client-traced', 'traced'];
const medians: Record<Mode, number[]> = { 'in-process': [], untraced: [], 'client-traced': [], traced: [] };
const ratios: number[] = [];
const clientRatios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const order = modes.map((_, i) => modes[(i + r) % modes.length]!);
  const got: Partial<Record<Mode, number>> = {};
  for (const mode of order) got[mode] = await round(mode);
  for (const mode of modes) medians[mode].push(got[mode]!);
  ratios.push(got.traced! / got.untraced!);
  clientRatios.push(got['client-traced']! / got.untraced!);
}

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const m = { inProcess: median(medians['in-process']), untraced: median(medians.untraced), clientTraced: median(medians['client-traced']), traced: median(medians.traced) };
const clientRatio = median(clientRatios);
const tracingRatio = median(ratios);
const added = tracingRatio - 1;
console.log(`MCP tool call over stdio vs in-process (${ROUNDS} interleaved rounds x ${PER_ROUND} calls per mode; medians of round medians)`);
console.log(`  in-process call              ${us(m.inProcess)}`);
console.log(`  stdio, untraced (SDK only)   ${us(m.untraced)}   = ${(m.untraced / m.inProcess).toFixed(0)}x in-process`);
console.log(`  stdio, client side traced    ${us(m.clientTraced)}   (client span + _meta injection; server untraced)`);
console.log(`  stdio, traced (both sides)   ${us(m.traced)}`);
console.log(`  client-traced / untraced     ${clientRatio.toFixed(3)} (the client side's share)`);
console.log(`  traced / untraced            ${tracingRatio.toFixed(3)} (median of per-round ratios; range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})`);
console.log(`  ours: tracing adds ${(added * 100).toFixed(1)}% to an untraced stdio call; of the traced call's latency, ${((added / tracingRatio) * 100).toFixed(1)}% is ours and ${((1 - m.inProcess / m.untraced) * 100).toFixed(1)}% of the untraced one is the MCP transport (stdio + JSON-RPC + SDK), not the tool`);
console.log(`  target: tracing adds at most ${TARGET * 100}%: ${added <= TARGET ? 'MET' : 'MISSED'}`);

await raw.close();
await traced.close();
await clientOnly.close();
await provider.shutdown();
await receiver.close();
