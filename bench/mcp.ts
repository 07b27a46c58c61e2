/**
 * MCP benchmark (npm run bench:mcp [pairs] [rounds]): an MCP tool call over stdio next to the same
 * tool in-process, and what footprint-otel/mcp's tracing adds to the stdio call, as ratios measured
 * in ONE run, paired call by call (the machine is shared: never read one time alone).
 *
 * How it measures. ONE server process (bench/mcpServer.ts) serves the same tool on two channels,
 * socket pairs like a stdio server's: channel T traced (traceMcpServer, the server's OTel SDK
 * exporting over OTLP to a local receiver), channel U the same McpServer without it. This process
 * holds both ends: on T, footprint-otel/mcp's tool (the real connection code over that channel, with
 * this process's OTel SDK from startTelemetry exporting to the same receiver: client span, _meta
 * injection, the duration histogram); on U, the MCP SDK's bare Client.callTool with the same deadline
 * and AbortSignal as the tool's. Both run inside one
 * parent span, as a tool call does under its execute_tool span. Calls alternate in blocks of 10, T
 * then U then U then T (ABBA, so neither always goes first), the k-th call of a T-block paired with
 * the k-th of the U-block next to it; each pair's difference T - U is ours, client and server side
 * together, and nothing else differs: same processes, same cores, within milliseconds. The result is
 * the median of the paired differences over the median untraced call, for all pairs and per round
 * (its spread says how stable it is). The same function called in-process, bare and inside a span,
 * is interleaved for scale. Target: tracing adds at most 10% to an untraced stdio call.
 *
 * The code measured is what the package ships: `npm run bench:mcp` builds dist/ and loads it in
 * place of src/ in both processes (bench/fromDist.mjs; tsx's transform of src/ wraps every closure in
 * a name-keeping helper, which alone read as ~13 µs of "tracing" per call). Comparing two versions:
 * MCP_BASE=dir (a compiled copy, `cp -r dist .base-dist` before the change) adds a third channel B
 * traced by that copy on both sides, rotated with T and U; the paired T - B difference is the
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
import { pathToFileURL } from 'node:url';
import type { Tool, ToolContext } from '../src/index.js';
import { DEFAULT_CALL_TIMEOUT_MS, McpConnection } from '../src/mcp/connection.js';
import { startTelemetry } from '../src/telemetry/index.js';
import { startReceiver } from './receiver.js';

const PAIRS = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 10);
const WARMUP = 500;
/** Calls per block: traced and untraced calls alternate block by block. */
const BLOCK = 10;
const TARGET = 0.1;

const receiver = await startReceiver();
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

/** MCP_BASE=dir (a compiled copy of dist/): a third channel, B, traced by that copy on both sides. */
const baseDir = process.env.MCP_BASE;
const serverFlags = process.env.MCP_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];
// the server runs the same code as this process: dist/ when this one was started with bench/fromDist.mjs
const fromDist = process.execArgv.some((arg) => arg.endsWith('fromDist.mjs'));
const distFlags = fromDist ? ['--import', pathToFileURL(path.resolve(import.meta.dirname, 'fromDist.mjs')).href] : [];
const server = spawn(process.execPath, [...serverFlags, '--import', 'tsx', ...distFlags, path.resolve(import.meta.dirname, 'mcpServer.ts')], {
  stdio: ['pipe', 'inherit', 'inherit', 'pipe', 'pipe', ...(baseDir ? ['pipe' as const] : [])],
  env: { ...process.env, OTEL_SERVICE_NAME: 'bench-mcp-server', OTEL_METRIC_EXPORT_INTERVAL: '3600000' },
});
const traced = await McpConnection.over({ transport: new SocketTransport(server.stdio[3] as Socket), network: { 'network.transport': 'pipe' }, label: 'desk-tools' }, { connectTimeoutMs: 60_000 });
const [tool] = traced.tools(['lookup_order']) as [Tool<{ id: string }>];
const baseTool = baseDir ? await baseChannel(baseDir) : undefined;
async function baseChannel(dir: string) {
  const code = (await import(pathToFileURL(path.resolve(dir, 'mcp/connection.js')).href)) as typeof import('../src/mcp/connection.js');
  const connection = await code.McpConnection.over({ transport: new SocketTransport(server.stdio.at(5) as Socket), network: { 'network.transport': 'pipe' }, label: 'desk-tools' }, { connectTimeoutMs: 60_000 });
  return { connection, tool: connection.tools(['lookup_order'])[0] as Tool<{ id: string }> };
}
const bare = new Client({ name: 'bench', version: '1' });
await bare.connect(new SocketTransport(server.stdio[4] as Socket), { timeout: 60_000 });

const ctx: ToolContext = { toolCallId: 'b', agentId: 'bench', signal: new AbortController().signal, pause: async () => undefined };
const lookup = async (id: string) => `order ${id}: shipped`;
const tracer = trace.getTracer('bench');
const calls = {
  traced: (id: string) => tool.execute({ id }, ctx),
  base: (id: string) => baseTool!.tool.execute({ id }, ctx),
  // the same request options as the tool's (its deadline and cancellation), so only the tracing differs
  untraced: (id: string) => bare.callTool({ name: 'lookup_order', arguments: { id } }, { timeout: DEFAULT_CALL_TIMEOUT_MS, signal: ctx.signal }),
  inProcess: (id: string) => lookup(id),
  inProcessSpan: (id: string) => tracer.startActiveSpan('execute_tool lookup_order', async (span) => {
    const text = await lookup(id);
    span.end();
    return text;
  }),
};
type Mode = keyof typeof calls;

async function time(mode: Mode, id: string): Promise<number> {
  const started = performance.now();
  await calls[mode](id);
  return performance.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Round {
  traced: number[];
  untraced: number[];
  diffs: number[];
  /** With MCP_BASE: the base channel's calls, each paired difference base - untraced, and traced - base. */
  base: number[];
  baseOverUntraced: number[];
  baseDiffs: number[];
  inProcess: number[];
  inProcessSpan: number[];
}

/**
 * One round: blocks of BLOCK traced calls and BLOCK untraced calls, alternated (ABBA: T-block then
 * U-block, then U then T), the k-th call of a T-block paired with the k-th of its U-block. Blocks, not
 * single calls, so that work a traced call leaves behind after its answer (the server ends its span
 * once the response is out) lands in the next call of its own mode, except at a block's edge. With a
 * base channel the three blocks rotate (T U B, U B T, B T U, then the same reversed), so each mode
 * takes each place equally often.
 */
async function round(pairs: number, offset: number): Promise<Round> {
  const r: Round = { traced: [], untraced: [], diffs: [], base: [], baseOverUntraced: [], baseDiffs: [], inProcess: [], inProcessSpan: [] };
  const compared: Mode[] = baseTool ? ['traced', 'untraced', 'base'] : ['traced', 'untraced'];
  for (let b = 0; b * BLOCK < pairs; b++) {
    const ids = Array.from({ length: Math.min(BLOCK, pairs - b * BLOCK) }, (_, k) => String(offset + b * BLOCK + k));
    const block = async (mode: Mode) => {
      const times: number[] = [];
      for (const id of ids) times.push(await time(mode, id));
      return times;
    };
    const n = compared.length;
    const order = [...compared.slice(b % n), ...compared.slice(0, b % n)];
    if (n === 3 && Math.floor(b / n) % 2 === 1) order.reverse();
    const times = {} as Record<Mode, number[]>;
    for (const mode of order) times[mode] = await block(mode);
    const { traced: t, untraced: u } = times;
    r.traced.push(...t);
    r.untraced.push(...u);
    r.diffs.push(...t.map((value, k) => value - u[k]!));
    if (times.base) {
      r.base.push(...times.base);
      r.baseOverUntraced.push(...times.base.map((value, k) => value - u[k]!));
      r.baseDiffs.push(...t.map((value, k) => value - times.base[k]!));
    }
    r.inProcess.push(...(await block('inProcess')));
    r.inProcessSpan.push(...(await block('inProcessSpan')));
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

const all = (key: keyof Round) => rounds.flatMap((r) => r[key]);
const ratio = (r: Pick<Round, 'diffs' | 'untraced'>) => median(r.diffs) / median(r.untraced);
const perRound = rounds.map(ratio);
const overall = ratio({ diffs: all('diffs'), untraced: all('untraced') });
const meanDiff = all('diffs').reduce((a, b) => a + b, 0) / all('diffs').length;
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const untraced = median(all('untraced'));
const inProcess = median(all('inProcess'));

console.log(`MCP tool call over stdio vs in-process, traced vs untraced: ${ROUNDS} rounds x ${PAIRS} T/U pairs (blocks of ${BLOCK}, ABBA), one server process, two channels`);
console.log(`  in-process call, bare / inside a span        ${us(inProcess)} / ${us(median(all('inProcessSpan')))}`);
console.log(`  stdio call, untraced (bare SDK client)        ${us(untraced)}   = ${(untraced / inProcess).toFixed(0)}x the in-process call: MCP's own cost`);
console.log(`  stdio call, traced (footprint-otel/mcp)       ${us(median(all('traced')))}`);
console.log(`  ours: median paired difference                ${us(median(all('diffs')))} (mean ${us(meanDiff)})`);
if (baseTool) {
  const baseOverall = ratio({ diffs: all('baseOverUntraced'), untraced: all('untraced') });
  const change = rounds.map((r) => median(r.baseDiffs));
  console.log(`  stdio call, base (${baseDir})        ${us(median(all('base')))}: base adds ${pct(baseOverall)} to an untraced stdio call`);
  console.log(`  traced - base, paired: median ${us(median(all('baseDiffs')))} (per round ${change.map((d) => (d * 1000).toFixed(0)).join(' ')} µs)`);
}
console.log(`  tracing adds ${pct(overall)} to an untraced stdio call (per round ${pct(Math.min(...perRound))} to ${pct(Math.max(...perRound))}); target at most ${pct(TARGET)}: ${overall <= TARGET ? 'MET' : 'MISSED'}`);

await traced.close();
await baseTool?.connection.close();
await bare.close();
server.stdin!.end();
await new Promise((resolve) => server.once('exit', resolve));
await telemetry.shutdown();
await receiver.close();
