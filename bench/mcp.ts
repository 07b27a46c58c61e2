/**
 * MCP benchmark (npm run bench:mcp [pairs] [rounds]): an MCP tool call over stdio next to the same
 * tool in-process, and what footprint-otel/mcp's tracing adds to the stdio call, as ratios measured
 * in ONE run, paired call by call (the machine is shared: never read one time alone).
 *
 * How it measures. ONE server process (bench/mcpServer.ts) serves the same tool on several channels,
 * socket pairs like a stdio server's: channel T traced (traceMcpServer, the server's OTel SDK
 * exporting over OTLP to a local receiver), channel U the same McpServer without it. This process
 * holds both ends: on T, footprint-otel/mcp's tool (the real connection code over that channel, with
 * this process's OTel SDK from startTelemetry exporting to the same receiver: client span, _meta
 * injection, the duration histogram); on U, the MCP SDK's bare Client.callTool with the same deadline
 * and AbortSignal as the tool's. All run inside one parent span, as a tool call does under its
 * execute_tool span. Calls alternate in blocks of 10, the blocks rotated (T U F H, U F H T, F H T U,
 * H T U F, then the same reversed, so each mode takes each place equally often), the k-th call of a
 * block paired with the k-th of the other blocks of its turn; each pair's difference T - U is ours,
 * client and server side together, and nothing else differs: same processes, same cores, within
 * milliseconds. The result is the median of the paired differences over the median untraced call,
 * for all pairs and per round (its spread says how stable it is). The same function called
 * in-process, bare and inside a span, is interleaved for scale. Target: tracing adds at most 10% to
 * an untraced stdio call.
 *
 * The floor. Channels F and H (F+H) are the least an integration can do with the OTel JS SDK for the
 * same trace, written by hand with no code of footprint-otel/mcp (bench/mcpFloor.ts: a CLIENT span,
 * propagation.inject into params._meta, the bare Client.callTool; on the server, the tool's handler
 * extracts _meta and runs inside a SERVER span): F with the spans only, H with them and one duration
 * histogram record per side, with the attribute sets ours records. Paired with U, they say what the
 * SDK's tracing costs over this channel whoever writes it, and whether the target can be met on this
 * SDK at all; paired with T (T - F, T - F+H), what our code costs on top.
 *
 * The OTLP receiver (bench/receiver.ts) runs in a process of its own (bench/receiverProcess.ts), as a
 * collector does in production: inside this process, receiving and parsing both processes' exports
 * (about 100 MB of OTLP/JSON in a default run) ran on the measured client's event loop, and landed
 * on whichever call was in flight. In two pairs of consecutive runs (bench/results/mcp.txt) the mean
 * paired difference read 30-50 µs lower with the receiver outside, the medians 2-5 points lower,
 * within the runs' spread and the load's change between runs.
 * MCP_RECEIVER=inline runs it in this process again, to compare.
 *
 * The code measured is what the package ships: `npm run bench:mcp` builds dist/ and loads it in
 * place of src/ in both processes (bench/fromDist.mjs; tsx's transform of src/ wraps every closure in
 * a name-keeping helper, which alone read as ~13 µs of "tracing" per call). Comparing two versions:
 * MCP_BASE=dir (a compiled copy, `cp -r dist .base-dist` before the change) adds a channel B
 * traced by that copy on both sides, rotated with the others; the paired T - B difference is the
 * change's effect, measured under the same load (an A/A run reads within a few µs per round).
 * MCP_SERVER_FLAGS passes node flags to the server process (e.g. --cpu-prof).
 *
 * What the pair does not hold: both processes have an OTel SDK registered in both modes (an agent of
 * this package has one anyway; a traced MCP server needs one), so the process-wide cost of the SDK's
 * AsyncLocalStorage context manager (Node's promise hooks, on every promise once a context is
 * entered) is on both sides of each pair and is not counted as ours.
 */
import { context, trace } from '@opentelemetry/api';
import { Client, ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { Tool, ToolContext } from '../src/index.js';
import { DEFAULT_CALL_TIMEOUT_MS, McpConnection } from '../src/mcp/connection.js';
import { startTelemetry } from '../src/telemetry/index.js';
import { median } from './measure.js';
import { floorCall, floorHistogram } from './mcpFloor.js';
import { startReceiver, type Receiver } from './receiver.js';

const PAIRS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 10);
const WARMUP = 500;
/** Calls per block: the modes' calls alternate block by block. */
const BLOCK = 10;
const TARGET = 0.1;

/** The OTLP receiver: a process of its own (bench/receiverProcess.ts), or MCP_RECEIVER=inline in this one. */
async function receiverOutside(): Promise<Receiver> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'receiverProcess.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { url } = JSON.parse((await lines.next()).value as string) as { url: string };
  const stats: Receiver['stats'] = { requests: 0, bytes: 0, spans: 0 };
  return {
    url,
    stats,
    close: async () => {
      child.stdin!.end();
      Object.assign(stats, JSON.parse((await lines.next()).value as string));
    },
  };
}
const receiverInline = process.env.MCP_RECEIVER === 'inline';
const receiver = receiverInline ? await startReceiver() : await receiverOutside();
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
const telemetry = startTelemetry({ serviceName: 'bench-mcp-client', metricExportIntervalMs: 3_600_000 });

/** The client half of a stdio transport (the SDK's StdioClientTransport framing) over one socket of a socket pair. */
class SocketTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  constructor(private readonly socket: Socket) {}
  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    this.socket.on('close', () => this.onclose?.());
  }
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => (this.socket.write(serializeMessage(message)) ? resolve() : this.socket.once('drain', resolve)));
  }
  async close(): Promise<void> {
    this.socket.destroy();
  }
}

/** MCP_BASE=dir (a compiled copy of dist/): one more channel, B, traced by that copy on both sides. */
const baseDir = process.env.MCP_BASE;
const serverFlags = process.env.MCP_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];
// the server runs the same code as this process: dist/ when this one was started with bench/fromDist.mjs
const fromDist = process.execArgv.some((arg) => arg.endsWith('fromDist.mjs'));
const distFlags = fromDist ? ['--import', pathToFileURL(path.resolve(import.meta.dirname, 'fromDist.mjs')).href] : [];
// fds 3..7 of the server (bench/mcpServer.ts): traced, untraced, floor, floor + histograms, base
const server = spawn(process.execPath, [...serverFlags, '--import', 'tsx', ...distFlags, path.resolve(import.meta.dirname, 'mcpServer.ts')], {
  stdio: ['pipe', 'inherit', 'inherit', 'pipe', 'pipe', 'pipe', 'pipe', ...(baseDir ? ['pipe' as const] : [])],
  env: { ...process.env, OTEL_SERVICE_NAME: 'bench-mcp-server', OTEL_METRIC_EXPORT_INTERVAL: '3600000' },
});
const socket = (fd: number) => new SocketTransport(server.stdio.at(fd) as Socket);
const traced = await McpConnection.over({ transport: socket(3), network: { 'network.transport': 'pipe' }, label: 'desk-tools' }, { connectTimeoutMs: 60_000 });
const [tool] = traced.tools(['lookup_order']) as [Tool<{ id: string }>];
const baseTool = baseDir ? await baseChannel(baseDir) : undefined;
async function baseChannel(dir: string) {
  const code = (await import(pathToFileURL(path.resolve(dir, 'mcp/connection.js')).href)) as typeof import('../src/mcp/connection.js');
  const connection = await code.McpConnection.over({ transport: socket(7), network: { 'network.transport': 'pipe' }, label: 'desk-tools' }, { connectTimeoutMs: 60_000 });
  return { connection, tool: connection.tools(['lookup_order'])[0] as Tool<{ id: string }> };
}
const bareClient = async (fd: number) => {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(socket(fd), { timeout: 60_000 });
  return client;
};
const bare = await bareClient(4);
const floorClient = await bareClient(5);
const floorHistClient = await bareClient(6);

const ctx: ToolContext = { toolCallId: 'b', agentId: 'bench', signal: new AbortController().signal, pause: async () => undefined };
// the same request options as the tool's (its deadline and cancellation), so only the tracing differs
const requestOptions = { timeout: DEFAULT_CALL_TIMEOUT_MS, signal: ctx.signal };
const floor = floorCall(floorClient, requestOptions);
const floorHist = floorCall(floorHistClient, requestOptions, floorHistogram('client'));
const lookup = async (id: string) => `order ${id}: shipped`;
const tracer = trace.getTracer('bench');
const calls = {
  traced: (id: string) => tool.execute({ id }, ctx),
  base: (id: string) => baseTool!.tool.execute({ id }, ctx),
  untraced: (id: string) => bare.callTool({ name: 'lookup_order', arguments: { id } }, requestOptions),
  floor: (id: string) => floor(id),
  floorHist: (id: string) => floorHist(id),
  inProcess: (id: string) => lookup(id),
  inProcessSpan: (id: string) => tracer.startActiveSpan('execute_tool lookup_order', async (span) => {
    const text = await lookup(id);
    span.end();
    return text;
  }),
};
type Mode = keyof typeof calls;
const compared: Mode[] = ['traced', 'untraced', 'floor', 'floorHist', ...(baseTool ? (['base'] as const) : [])];

async function time(mode: Mode, id: string): Promise<number> {
  const started = performance.now();
  await calls[mode](id);
  return performance.now() - started;
}

/** One round's call times by mode; the k-th entries of the compared modes come from neighbouring blocks (a pair). */
type Round = Record<Mode, number[]>;

/**
 * One round: blocks of BLOCK calls per compared mode, rotated (T U F H, U F H T, … then the same
 * reversed, so each mode takes each place equally often), the k-th call of a block paired with the
 * k-th of every other block of the same turn. Blocks, not single calls, so that work a traced call leaves behind after its answer
 * (the server ends its span once the response is out) lands in the next call of its own mode, except
 * at a block's edge.
 */
async function round(pairs: number, offset: number): Promise<Round> {
  const r = Object.fromEntries(Object.keys(calls).map((mode) => [mode, []])) as unknown as Round;
  for (let b = 0; b * BLOCK < pairs; b++) {
    const ids = Array.from({ length: Math.min(BLOCK, pairs - b * BLOCK) }, (_, k) => String(offset + b * BLOCK + k));
    const block = async (mode: Mode) => {
      for (const id of ids) r[mode].push(await time(mode, id));
    };
    const n = compared.length;
    const order = [...compared.slice(b % n), ...compared.slice(0, b % n)];
    if (Math.floor(b / n) % 2 === 1) order.reverse();
    for (const mode of order) await block(mode);
    await block('inProcess');
    await block('inProcessSpan');
  }
  return r;
}

const parent = tracer.startSpan('bench parent');
const rounds = await context.with(trace.setSpan(context.active(), parent), async () => {
  await round(WARMUP, 0);
  const done: Round[] = [];
  for (let k = 0; k < ROUNDS; k++) done.push(await round(PAIRS, (k + 1) * PAIRS));
  return done;
});
parent.end();

/** The paired differences a - b of one round (or of all, concatenated). */
const paired = (r: Round, a: Mode, b: Mode) => r[a].map((value, k) => value - r[b][k]!);
const all = rounds.reduce((acc, r) => {
  for (const mode of Object.keys(calls) as Mode[]) acc[mode].push(...r[mode]);
  return acc;
}, Object.fromEntries(Object.keys(calls).map((mode) => [mode, []])) as unknown as Round);
/** What mode adds to an untraced stdio call: median paired difference over the median untraced call. */
const adds = (r: Round, mode: Mode) => median(paired(r, mode, 'untraced')) / median(r.untraced);
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const perRound = (mode: Mode) => {
  const each = rounds.map((r) => adds(r, mode));
  return `per round ${pct(Math.min(...each))} to ${pct(Math.max(...each))}`;
};
const diffsPerRound = (a: Mode, b: Mode) => rounds.map((r) => (median(paired(r, a, b)) * 1000).toFixed(0)).join(' ');
const verdict = (x: number) => (x <= TARGET ? 'MET' : 'MISSED');
const untraced = median(all.untraced);
const inProcess = median(all.inProcess);
const diffs = paired(all, 'traced', 'untraced');
const overall = adds(all, 'traced');

console.log(`MCP tool call over stdio vs in-process, traced vs untraced: ${ROUNDS} rounds x ${PAIRS} pairs (blocks of ${BLOCK}, rotated: ${compared.join(' ')}), one server process, ${compared.length} channels; receiver ${receiverInline ? 'in this process' : 'in its own process'}`);
console.log(`  in-process call, bare / inside a span        ${us(inProcess)} / ${us(median(all.inProcessSpan))}`);
console.log(`  stdio call, untraced (bare SDK client)        ${us(untraced)}   = ${(untraced / inProcess).toFixed(0)}x the in-process call: MCP's own cost`);
console.log(`  stdio call, traced (footprint-otel/mcp)       ${us(median(all.traced))}`);
console.log(`  ours: median paired difference                ${us(median(diffs))} (mean ${us(diffs.reduce((a, b) => a + b, 0) / diffs.length)})`);
if (baseTool) {
  console.log(`  stdio call, base (${baseDir})        ${us(median(all.base))}: base adds ${pct(adds(all, 'base'))} to an untraced stdio call`);
  console.log(`  traced - base, paired: median ${us(median(paired(all, 'traced', 'base')))} (per round ${diffsPerRound('traced', 'base')} µs)`);
}
console.log(`  stdio call, floor F (hand-written OTel)       ${us(median(all.floor))}: adds ${us(median(paired(all, 'floor', 'untraced')))}, ${pct(adds(all, 'floor'))} (${perRound('floor')})`);
console.log(`  stdio call, floor F+H (and both histograms)   ${us(median(all.floorHist))}: adds ${us(median(paired(all, 'floorHist', 'untraced')))}, ${pct(adds(all, 'floorHist'))} (${perRound('floorHist')})`);
console.log(`  ours - floor, paired T - F: median ${us(median(paired(all, 'traced', 'floor')))} (per round ${diffsPerRound('traced', 'floor')} µs)`);
console.log(`  ours - floor, paired T - F+H: median ${us(median(paired(all, 'traced', 'floorHist')))} (per round ${diffsPerRound('traced', 'floorHist')} µs)`);
console.log(`  tracing adds ${pct(overall)} to an untraced stdio call (${perRound('traced')}); target at most ${pct(TARGET)}: ${verdict(overall)}`);
console.log(`  the floor itself against the target: F+H (ours' trace and metrics) ${pct(adds(all, 'floorHist'))}: ${verdict(adds(all, 'floorHist'))}; F (spans only) ${pct(adds(all, 'floor'))}: ${verdict(adds(all, 'floor'))}`);

await traced.close();
await baseTool?.connection.close();
for (const client of [bare, floorClient, floorHistClient]) await client.close();
server.stdin!.end();
await new Promise((resolve) => server.once('exit', resolve));
await telemetry.shutdown();
await receiver.close();
console.log(`  receiver: ${receiver.stats.requests} OTLP requests, ${receiver.stats.spans} spans, ${(receiver.stats.bytes / 1e6).toFixed(1)} MB`);
