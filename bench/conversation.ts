/**
 * What a longer conversation costs per turn: the reference turn (bench/scenario.ts) given a
 * 20-message conversation as its input against the same turn given one message, in ONE process,
 * blocks of each interleaved over rounds, process CPU µs per turn, the median per mode (the OTel
 * setup is bench/inProcessTracing.ts's). The model's replies are the same three either way; what grows
 * is what each call carries and records (the request's messages, the events' payloads, lineage).
 * Prints the ratios and the target (issue #40: at most 10% more per turn) MET or MISSED; with
 * --json, one JSON line for bench/run.ts.
 *
 *   npm run bench:conversation   (env: BENCH_CONVERSATION_LENGTH, 20; under --expose-gc: clean blocks, measure.ts)
 */
import { registerInstrument, tracingInstrument, type TraceDetail } from '../src/index.js';
import { inProcessTracing } from './inProcessTracing.js';
import { cleanBlock, median } from './measure.js';
import { conversation, referenceAgent } from './scenario.js';

const quick = process.argv.includes('--quick');
const LENGTH = Number(process.env.BENCH_CONVERSATION_LENGTH ?? 20);
const BLOCK = quick ? 50 : 200;
const ROUNDS = quick ? 3 : 9;
/** Issue #40's target: a long conversation costs at most this much more per turn than a one-message one. */
export const CONVERSATION_LIMIT = 1.1;
const ANSWER = 'Order 1234 shipped; shipping to Lyon costs 12 EUR.';

const { provider } = inProcessTracing();
const agent = referenceAgent();
const inputs = { short: conversation(1), long: conversation(LENGTH) };
const details: (TraceDetail | 'untraced')[] = ['untraced', 'full', 'semantic'];

/** A clean block (measure.ts): it pays for its own garbage and spans, not for the block's before it. */
function block(detail: (typeof details)[number], input: keyof typeof inputs, turns: number): Promise<number> {
  const traced = detail === 'untraced' ? undefined : () => registerInstrument(tracingInstrument({ tracerProvider: provider, detail }));
  return cleanBlock(() => agent.run(inputs[input]), turns, () => provider.forceFlush(), traced);
}

for (const input of ['short', 'long'] as const) {
  const answer = (await agent.run(inputs[input])).text;
  if (answer !== ANSWER) throw new Error(`bench:conversation: the ${input} conversation answered ${JSON.stringify(answer)}`);
}
for (const detail of details) for (const input of ['short', 'long'] as const) await block(detail, input, quick ? 100 : 400);
const samples: Record<string, number[]> = {};
const ratios: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const detail of details) {
    const order = round % 2 === 0 ? (['short', 'long'] as const) : (['long', 'short'] as const);
    const t: Record<string, number> = {};
    for (const input of order) (samples[`${detail} ${input}`] ??= []).push((t[input] = await block(detail, input, BLOCK)));
    (ratios[detail] ??= []).push(t.long! / t.short!);
  }
}
await provider.shutdown();

/** What `--json` prints, for bench/run.ts. */
export interface ConversationResult {
  length: number;
  us: Record<string, number>;
  /** Median per-round ratio long / short, by detail. */
  ratio: Record<string, number>;
  targets: { name: string; value: number; limit: number; met: boolean }[];
}
const us = Object.fromEntries(Object.entries(samples).map(([mode, xs]) => [mode, median(xs)]));
const ratio = Object.fromEntries(Object.entries(ratios).map(([detail, xs]) => [detail, median(xs)]));
const targets = (['full', 'semantic'] as const).map((detail) => ({
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
      `conversation benchmark: one process, ${ROUNDS} interleaved rounds of ${BLOCK} turns, process CPU µs per turn (median); ${LENGTH} messages vs 1`,
      ...Object.entries(us).map(([mode, value]) => `  ${mode.padEnd(16)} ${value.toFixed(0).padStart(6)} µs`),
      `  untraced ${LENGTH} / 1: ${ratio.untraced!.toFixed(3)}x`,
      ...targets.map((t) => `  ${t.met ? 'MET   ' : 'MISSED'} ${t.name}: ${t.value.toFixed(3)}x (limit ${t.limit}x)`),
    ].join('\n'),
  );
}
