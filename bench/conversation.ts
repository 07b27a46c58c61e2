/**
 * What a longer conversation costs per turn: the reference turn (bench/scenario.ts) given a
 * 20-message conversation as its input against the same turn given one message, in ONE process,
 * blocks of each interleaved over rounds, process CPU µs per turn, the median per mode (the OTel
 * setup is bench/inProcessTracing.ts's). The model's replies are the same three either way; what grows
 * is what each call carries and records (the request's messages, the events' payloads, lineage).
 * Prints the ratios and the target (issue #40: at most 10% more per turn) MET or MISSED; with
 * --json, one JSON line for bench/run.ts.
 *
 * With --peer it times the same turn on the Vercel AI SDK 6 instead (bench/peerTurn.ts: untraced, and
 * traced with its content recording off, as bench/peer.ts does), in a process of its own so its
 * garbage does not land in our blocks: what a message costs the peer, printed beside the target, not graded.
 *
 *   npm run bench:conversation [-- --peer]   (env: BENCH_CONVERSATION_LENGTH, 20; under --expose-gc: clean blocks, measure.ts)
 */
import { registerInstrument, tracingInstrument } from '../src/index.js';
import { inProcessTracing } from './inProcessTracing.js';
import { cleanBlock, median } from './measure.js';
import { aiSdk6Turn } from './peerTurn.js';
import { conversation, referenceAgent } from './scenario.js';

const quick = process.argv.includes('--quick');
const LENGTH = Number(process.env.BENCH_CONVERSATION_LENGTH ?? 20);
const BLOCK = quick ? 50 : 200;
// 25 rounds, not 9: a message costs about a microsecond a turn, so a ratio near the limit is read
// from differences of a few percent; nine rounds put the same build's semantic ratio anywhere in
// 1.06-1.14 from one run to the next (docs/benchmarks.md, round 5's eleventh session).
const ROUNDS = quick ? 3 : 25;
/** Issue #40's target: a long conversation costs at most this much more per turn than a one-message one. */
export const CONVERSATION_LIMIT = 1.1;
const ANSWER = 'Order 1234 shipped; shipping to Lyon costs 12 EUR.';

const { provider } = inProcessTracing();
const inputs = { short: conversation(1), long: conversation(LENGTH) };
type Input = keyof typeof inputs;

/** A mode: its turn given either input, what is set up around each of its blocks, what is undone after one. */
interface Mode {
  name: string;
  turn: Record<Input, () => Promise<string>>;
  around?: () => () => void;
  /** After a block: the AI SDK's mock model forgets the calls it recorded (bench/peerTurn.ts). */
  reset?: () => void;
}

function ourModes(): Mode[] {
  const agent = referenceAgent();
  const turn = { short: async () => (await agent.run(inputs.short)).text, long: async () => (await agent.run(inputs.long)).text };
  return (['untraced', 'full', 'semantic'] as const).map((detail) => ({
    name: detail,
    turn,
    around: detail === 'untraced' ? undefined : () => registerInstrument(tracingInstrument({ tracerProvider: provider, detail })),
  }));
}

function peerModes(): Mode[] {
  return [
    { name: 'ai6-untraced', tracer: undefined },
    { name: 'ai6-traced-nocontent', tracer: provider.getTracer('bench-conversation') },
  ].map(({ name, tracer }) => {
    const turns = { short: aiSdk6Turn(tracer, { content: false, messages: inputs.short }), long: aiSdk6Turn(tracer, { content: false, messages: inputs.long }) };
    return { name, turn: { short: () => turns.short.run(), long: () => turns.long.run() }, reset: () => (turns.short.reset(), turns.long.reset()) };
  });
}

const peer = process.argv.includes('--peer');
const modes = peer ? peerModes() : ourModes();

/** A clean block (measure.ts): it pays for its own garbage and spans, not for the block's before it. */
async function block(mode: Mode, input: Input, turns: number): Promise<number> {
  const perTurn = await cleanBlock(mode.turn[input], turns, () => provider.forceFlush(), mode.around);
  mode.reset?.();
  return perTurn;
}

for (const mode of modes) {
  for (const input of ['short', 'long'] as const) {
    const undo = mode.around?.();
    const answer = await mode.turn[input]().finally(() => undo?.());
    if (answer !== ANSWER) throw new Error(`bench:conversation: ${mode.name} given the ${input} conversation answered ${JSON.stringify(answer)}`);
  }
}
for (const mode of modes) for (const input of ['short', 'long'] as const) await block(mode, input, quick ? 100 : 400);
const samples: Record<string, number[]> = {};
const ratios: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of modes) {
    const order = round % 2 === 0 ? (['short', 'long'] as const) : (['long', 'short'] as const);
    const t: Partial<Record<Input, number>> = {};
    for (const input of order) (samples[`${mode.name} ${input}`] ??= []).push((t[input] = await block(mode, input, BLOCK)));
    (ratios[mode.name] ??= []).push(t.long! / t.short!);
  }
}
await provider.shutdown();

/** What `--json` prints, for bench/run.ts. */
export interface ConversationResult {
  length: number;
  us: Record<string, number>;
  /** Median per-round ratio long / short, by mode: ours untraced, full, semantic; with --peer, ai6-untraced and ai6-traced-nocontent. */
  ratio: Record<string, number>;
  /** Ours: the targets for full and semantic detail. With --peer: none. */
  targets: { name: string; value: number; limit: number; met: boolean }[];
}
const us = Object.fromEntries(Object.entries(samples).map(([mode, xs]) => [mode, median(xs)]));
const ratio = Object.fromEntries(Object.entries(ratios).map(([mode, xs]) => [mode, median(xs)]));
/** The modes the target grades: ours in full and in semantic detail (the untraced ratio and the peer's are printed, not graded). */
const graded: readonly string[] = peer ? [] : ['full', 'semantic'];
const targets = graded.map((detail) => ({
  name: `a ${LENGTH}-message conversation <= ${CONVERSATION_LIMIT}x a one-message one per turn (${detail} detail)`,
  value: ratio[detail]!,
  limit: CONVERSATION_LIMIT,
  met: ratio[detail]! <= CONVERSATION_LIMIT,
}));
const result: ConversationResult = { length: LENGTH, us, ratio, targets };
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  console.log(
    [
      `conversation benchmark${peer ? ' (the AI SDK 6)' : ''}: one process, ${ROUNDS} interleaved rounds of ${BLOCK} turns, process CPU µs per turn (median); ${LENGTH} messages vs 1`,
      ...Object.entries(us).map(([mode, value]) => `  ${mode.padEnd(28)} ${value.toFixed(0).padStart(6)} µs`),
      ...modes.filter((mode) => !graded.includes(mode.name)).map((mode) => `  ${mode.name} ${LENGTH} / 1: ${ratio[mode.name]!.toFixed(3)}x`),
      ...targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(3)}x (limit ${t.limit}x)`),
    ].join('\n'),
  );
}
