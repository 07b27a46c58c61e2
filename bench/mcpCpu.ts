/**
 * CPU per MCP tool call, client and server in ONE process over the SDK's InMemoryTransport (no
 * sockets, no scheduling): where the traced call's CPU goes, which bench/mcp.ts's stdio pair cannot
 * show. Each mode is its own channel to its own McpServer, under startTelemetry's real pipeline
 * (OTLP/JSON to a local receiver); calls alternate mode by mode in blocks (order flipped every
 * block), each call followed by a turn of the event loop as a real transport's I/O gives, and the
 * process CPU per call (process.cpuUsage) is summed per mode, per round.
 *
 *   traced      footprint-otel/mcp's tool against a traceMcpServer server
 *   clientOnly  our tool against a bare server      serverOnly  the bare SDK Client against traceMcpServer
 *   untraced    the bare SDK Client against a bare server
 *   floor       bench/mcpFloor.ts's hand-written tracing on both sides (no footprint-otel/mcp code)
 *   floorHist   the same with its two duration histograms
 *   floorClient the floor's client half (with its histogram) against a bare server
 *   floorServer the bare SDK Client against the floor's server half (with its histogram)
 *   base        `traced` from a compiled copy of the package (MCP_BASE=dir, e.g. `cp -r dist
 *               .base-dist` before a change): the change's effect, A/B in one process
 *
 * MCP_WALL=1 reports the median wall time per call instead of the CPU sum: steadier on a loaded
 * machine, and blind (like bench/mcp.ts's median) to the rare call that carries a batch export.
 * As bench/mcp.ts, it measures dist/ (run `npm run build` first):
 *
 *   node --import tsx --import ./bench/fromDist.mjs bench/mcpCpu.ts [calls=4000] [rounds=5] [modes=traced,untraced]
 *   node --cpu-prof --cpu-prof-dir=/tmp/mcp-prof --import tsx --import ./bench/fromDist.mjs bench/mcpCpu.ts 20000 1 traced
 *     then: npx tsx bench/cpuProfileTop.ts /tmp/mcp-prof/<the larger file>.cpuprofile
 */
import { context, trace } from '@opentelemetry/api';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tool, ToolContext } from '../src/index.js';
import * as current from '../src/mcp/connection.js';
import * as currentServer from '../src/mcp/server.js';
import { startTelemetry } from '../src/telemetry/index.js';
import { median } from './measure.js';
import { deskServer } from './mcpDeskServer.js';
import { floorCall, floorHandler, floorHistogram } from './mcpFloor.js';
import { startReceiver } from './receiver.js';

const CALLS = Number(process.argv[2] ?? 4000);
const ROUNDS = Number(process.argv[3] ?? 5);
const ALL = ['traced', 'base', 'clientOnly', 'serverOnly', 'untraced', 'floor', 'floorHist', 'floorClient', 'floorServer'] as const;
type Mode = (typeof ALL)[number];
const modes = (process.argv[4] ?? (process.env.MCP_BASE ? 'traced,base,untraced' : 'traced,untraced')).split(',') as Mode[];
for (const mode of modes) if (!ALL.includes(mode)) throw new Error(`unknown mode ${mode} (modes: ${ALL.join(', ')})`);
const BLOCK = 50;
const WARMUP_CALLS = 2000;

type Connection = typeof current;
type Server = typeof currentServer;
const load = async (dir: string) => {
  const base = pathToFileURL(resolve(dir, 'mcp')).href;
  return { connection: (await import(`${base}/connection.js`)) as Connection, server: (await import(`${base}/server.js`)) as Server };
};
const baseline = modes.includes('base') ? await load(process.env.MCP_BASE ?? '') : undefined;

const receiver = await startReceiver();
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
const telemetry = startTelemetry({ serviceName: 'bench-mcp-cpu', metricExportIntervalMs: 3_600_000 });


/** The client end of an in-memory pair to a new McpServer, traced by `traceWith` or bare (or by the floor's handler). */
async function serverSide(traceWith: Server | undefined, server = deskServer()) {
  const [clientSide, serverEnd] = InMemoryTransport.createLinkedPair();
  await (traceWith ? traceWith.traceMcpServer(server, { name: 'desk-tools' }) : server).connect(serverEnd);
  return clientSide;
}
async function ourTool(code: Connection, traceWith: Server | undefined) {
  const connection = await code.McpConnection.over({ transport: await serverSide(traceWith), network: { 'network.transport': 'pipe' }, label: 'desk-tools' });
  const tool = connection.tools(['lookup_order'])[0] as Tool<{ id: string }>;
  return { tool, close: () => connection.close() };
}
async function bareClient(traceWith: Server | undefined, server?: ReturnType<typeof deskServer>) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(await serverSide(traceWith, server));
  return client;
}

const ctx: ToolContext = { toolCallId: 'b', agentId: 'bench', signal: new AbortController().signal, pause: async () => undefined };
// the same request options as the tool's (its deadline and cancellation), so only the tracing differs
const requestOptions = { timeout: current.DEFAULT_CALL_TIMEOUT_MS, signal: ctx.signal };
const closers: (() => Promise<void>)[] = [];
const calls = {} as Record<Mode, (id: string) => Promise<unknown>>;
for (const mode of modes) {
  if (mode === 'traced' || mode === 'clientOnly' || mode === 'base') {
    const code = mode === 'base' ? baseline! : { connection: current, server: currentServer };
    const { tool, close } = await ourTool(code.connection, mode === 'clientOnly' ? undefined : code.server);
    closers.push(close);
    calls[mode] = async (id) => tool.execute({ id }, ctx);
  } else if (mode.startsWith('floor')) {
    const histograms = mode !== 'floor';
    const server = mode === 'floorClient' ? deskServer() : deskServer(floorHandler(histograms ? floorHistogram('server') : undefined));
    const client = await bareClient(undefined, server);
    closers.push(() => client.close());
    calls[mode] = mode === 'floorServer' ? (id) => client.callTool({ name: 'lookup_order', arguments: { id } }, requestOptions) : floorCall(client, requestOptions, histograms ? floorHistogram('client') : undefined);
  } else {
    const client = await bareClient(mode === 'serverOnly' ? currentServer : undefined);
    closers.push(() => client.close());
    calls[mode] = (id) => client.callTool({ name: 'lookup_order', arguments: { id } }, requestOptions);
  }
}

const cpu = Object.fromEntries(ALL.map((m) => [m, 0])) as Record<Mode, number>;
const wall = Object.fromEntries(ALL.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
async function block(mode: Mode, from: number): Promise<void> {
  const start = process.cpuUsage();
  for (let k = 0; k < BLOCK; k++) {
    const started = performance.now();
    await calls[mode](String(from + k));
    wall[mode].push((performance.now() - started) * 1000);
    // a turn of the event loop, as a real transport's I/O gives: timers and setImmediate (the span
    // queue's export) run here, not never (an in-memory call chain is all microtasks)
    await new Promise(setImmediate);
  }
  const used = process.cpuUsage(start);
  cpu[mode] += used.user + used.system;
}

const parent = trace.getTracer('bench').startSpan('bench parent');
await context.with(trace.setSpan(context.active(), parent), async () => {
  for (let i = 0; i < WARMUP_CALLS; i += BLOCK) for (const mode of modes) await block(mode, i);
  const added: Partial<Record<Mode | 'diff', number[]>> = {};
  console.log(`CPU µs per call, ${ROUNDS} rounds x ${CALLS} calls per mode (blocks of ${BLOCK}, alternating), in-process InMemoryTransport:`);
  for (let r = 0; r < ROUNDS; r++) {
    for (const m of ALL) {
      cpu[m] = 0;
      wall[m] = [];
    }
    for (let i = 0; i < CALLS; i += BLOCK) for (const mode of (i / BLOCK) % 2 ? [...modes].reverse() : modes) await block(mode, i);
    // per call: the CPU sum over the calls made (one wall time each), or the median wall time
    const per = Object.fromEntries(modes.map((m) => [m, process.env.MCP_WALL ? median(wall[m]) : cpu[m] / wall[m].length])) as Record<Mode, number>;
    let line = modes.map((m) => `${m} ${per[m].toFixed(1)}`).join(' / ');
    if (modes.includes('untraced')) {
      const over = modes.filter((m) => m !== 'untraced').map((m) => {
        (added[m] ??= []).push(per[m] - per.untraced);
        return `${m} +${(per[m] - per.untraced).toFixed(1)}`;
      });
      line += `   added: ${over.join(', ')}`;
    }
    if (modes.includes('base') && modes.includes('traced')) (added.diff ??= []).push(per.traced - per.base);
    console.log(`  ${line}`);
  }
  const { diff, ...over } = added;
  const summary = Object.entries(over).map(([m, values]) => `${m} +${median(values).toFixed(1)}`);
  if (summary.length > 0) console.log(`  median added over untraced: ${summary.join(', ')}`);
  if (diff) console.log(`  traced - base, per round: median ${median(diff).toFixed(1)} (${diff.map((d) => d.toFixed(0)).join(' ')})`);
});
parent.end();

for (const close of closers) await close();
await telemetry.shutdown();
await receiver.close();
