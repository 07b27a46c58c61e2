/**
 * Our reference turn against the same turn on the Vercel AI SDK (bench/peerTurn.ts), in ONE process
 * so both share one OTel SDK (BasicTracerProvider, BatchSpanProcessor into a counting exporter, the
 * AsyncLocalStorage context manager, one @opentelemetry/api): blocks of each mode interleaved over
 * rounds, process CPU time per turn, the median over rounds. Both runtimes must give the same answer
 * before anything is timed. Run it under --expose-gc (`npm run bench:peer`): each block then starts on
 * an empty young generation and pays for its own garbage (measure.ts cleanBlock). Prints the ratios
 * and the peer targets MET/MISSED; with --json, one JSON line for bench/run.ts instead.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { aiSdk6Turn, aiSdk7Turn, ANSWER, type PeerTurn } from './peerTurn.js';
import { MESSAGE, referenceAgent } from './scenario.js';
import { registerInstrument, tracingInstrument, type TraceDetail } from '../src/index.js';
import { countingExporter } from './countingExporter.js';
import { cleanBlock, median } from './measure.js';
import { captureTurn, sdkReplay, splitLines, type OverheadSplit } from './sdkReplay.js';

const quick = process.argv.includes('--quick');
const WARMUP = quick ? 100 : 400;
const BLOCK = quick ? 50 : 200;
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? (quick ? 3 : 9));

const counting = countingExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(counting)] });
const tracer = provider.getTracer('bench-peer');

interface Mode {
  name: string;
  turn: PeerTurn;
  /** What one turn answers (default: the reference turn's answer). */
  answer?: string;
  /** Set up before each block (our tracing instrument), undone after it. */
  around?: () => () => void;
}

const agent = referenceAgent();
const ours = (detail?: TraceDetail): Mode => ({
  name: detail ? `ours-${detail}` : 'ours-untraced',
  turn: { run: async () => (await agent.run(MESSAGE)).text, reset: () => {} },
  around: detail ? () => registerInstrument(tracingInstrument({ tracerProvider: provider, detail })) : undefined,
});
const modes: Mode[] = [
  ours(),
  ours('full'),
  ours('semantic'),
  { name: 'ai6-untraced', turn: aiSdk6Turn() },
  { name: 'ai6-traced', turn: aiSdk6Turn(tracer) },
  { name: 'ai6-traced-nocontent', turn: aiSdk6Turn(tracer, { content: false }) },
];
const ai7Untraced = await aiSdk7Turn();
const ai7Traced = await aiSdk7Turn(tracer);
if (ai7Untraced && ai7Traced) modes.push({ name: 'ai7-untraced', turn: ai7Untraced }, { name: 'ai7-traced', turn: ai7Traced });

// The OTel SDK alone, replaying one turn's exact spans of a traced mode (bench/sdkReplay.ts): what
// any library exporting that trace pays, timed in the same rounds as the turns themselves.
const oursCaptured = (detail: TraceDetail) => (capture: BasicTracerProvider) => {
  const undo = registerInstrument(tracingInstrument({ tracerProvider: capture, detail }));
  return agent.run(MESSAGE).finally(undo);
};
const replays: { mode: string; of: string; untraced: string; spans: Awaited<ReturnType<typeof captureTurn>> }[] = [
  { mode: 'sdk-replay-full', of: 'ours-full', untraced: 'ours-untraced', spans: await captureTurn(oursCaptured('full')) },
  { mode: 'sdk-replay-semantic', of: 'ours-semantic', untraced: 'ours-untraced', spans: await captureTurn(oursCaptured('semantic')) },
  { mode: 'sdk-replay-ai6-nocontent', of: 'ai6-traced-nocontent', untraced: 'ai6-untraced', spans: await captureTurn((capture) => aiSdk6Turn(capture.getTracer('capture'), { content: false }).run()) },
];
for (const replay of replays) modes.push({ name: replay.mode, turn: sdkReplay(replay.spans, tracer), answer: String(replay.spans.length) });

/** One turn of a mode, with its spans counted: the same answer everywhere, or nothing is timed. */
async function check(mode: Mode): Promise<number> {
  const undo = mode.around?.();
  await provider.forceFlush();
  const before = counting.exported;
  const answer = await mode.turn.run();
  undo?.();
  await provider.forceFlush();
  const expected = mode.answer ?? ANSWER;
  if (answer !== expected) throw new Error(`bench:peer: ${mode.name} answered ${JSON.stringify(answer)}, not ${JSON.stringify(expected)}`);
  return counting.exported - before;
}

/** A clean block (measure.ts): it pays for its own garbage and spans, not for the mode's before it. */
async function block(mode: Mode, turns: number): Promise<number> {
  const perTurn = await cleanBlock(() => mode.turn.run(), turns, () => provider.forceFlush(), mode.around);
  mode.turn.reset();
  return perTurn;
}

const spans: Record<string, number> = {};
for (const mode of modes) spans[mode.name] = await check(mode);
for (const mode of modes) await block(mode, WARMUP);
const samples: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of modes) (samples[mode.name] ??= []).push(await block(mode, BLOCK));
}
await provider.shutdown();

const us: Record<string, number> = Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]));
const ratio = (a: string, b: string) => us[a]! / us[b]!;
// The fair comparison (issue #40): the AI SDK with its prompt and completion recording off, as our
// default is. The earlier targets (against its default, which records content) stay visible.
const targets = [
  { name: 'ours traced (full) <= 0.8x AI SDK 6 traced, content off', value: ratio('ours-full', 'ai6-traced-nocontent'), limit: 0.8 },
  { name: 'ours traced (semantic) <= 0.6x AI SDK 6 traced, content off', value: ratio('ours-semantic', 'ai6-traced-nocontent'), limit: 0.6 },
  { name: 'ours untraced <= 0.6x AI SDK 6 untraced', value: ratio('ours-untraced', 'ai6-untraced'), limit: 0.6 },
  { name: 'earlier: ours traced (full) <= 0.8x AI SDK 6 traced, content on (its default)', value: ratio('ours-full', 'ai6-traced'), limit: 0.8 },
  { name: 'earlier: ours untraced <= 0.8x AI SDK 6 untraced', value: ratio('ours-untraced', 'ai6-untraced'), limit: 0.8 },
  { name: 'earlier: semantic <= 0.85x full', value: ratio('ours-semantic', 'ours-full'), limit: 0.85 },
  { name: 'earlier: full <= 1.25x untraced (same process)', value: ratio('ours-full', 'ours-untraced'), limit: 1.25 },
  { name: 'earlier: semantic <= 1.1x untraced (same process)', value: ratio('ours-semantic', 'ours-untraced'), limit: 1.1 },
].map((t) => ({ ...t, met: t.value <= t.limit }));
const reported = [
  { name: 'AI SDK 6 traced, content off / content on', value: ratio('ai6-traced-nocontent', 'ai6-traced') },
  ...(us['ai7-traced'] ? [{ name: 'ours traced (full) / AI SDK 7 traced', value: ratio('ours-full', 'ai7-traced') }, { name: 'ours untraced / AI SDK 7 untraced', value: ratio('ours-untraced', 'ai7-untraced') }] : []),
];

const splits: OverheadSplit[] = replays.map((r) => ({ mode: r.of, traced: us[r.of]!, untraced: us[r.untraced]!, sdk: us[r.mode]! }));

/** What `--json` prints, for bench/run.ts. */
export interface PeerResult {
  us: Record<string, number>;
  spans: Record<string, number>;
  targets: { name: string; value: number; limit: number; met: boolean }[];
  reported: { name: string; value: number }[];
  splits: OverheadSplit[];
  rounds: number;
  block: number;
}

if (process.argv.includes('--json')) {
  const result: PeerResult = { us, spans, targets, reported, splits, rounds: ROUNDS, block: BLOCK };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const lines = [
    `peer benchmark: one process, ${ROUNDS} interleaved rounds of ${BLOCK} turns per mode, process CPU µs per turn (median)`,
    ...modes.map((m) => `  ${m.name.padEnd(22)} ${us[m.name]!.toFixed(0).padStart(6)} µs   ${spans[m.name]} spans per turn`),
    ...reported.map((r) => `  ${r.name}: ${r.value.toFixed(2)}x`),
    ...splitLines(splits),
    ...targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(2)}x (limit ${t.limit}x)`),
  ];
  console.log(lines.join('\n'));
}
