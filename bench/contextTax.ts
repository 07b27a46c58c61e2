/**
 * What context propagation costs a turn on this Node: the untraced reference turn with
 * AsyncLocalStorage's promise hooks off, and with them on, beside the full and the semantic traced
 * turn, in ONE process, clean blocks (measure.ts) interleaved over rounds, process CPU µs per turn.
 *
 * Node before 24 propagates AsyncLocalStorage through async_hooks: once any instance holds a store,
 * every promise the process makes runs an init hook that copies the store onto it, and every await
 * runs a before and an after hook. The OTel context manager every Node app registers
 * (AsyncLocalStorageContextManager) turns them on at its first context.with(), and they stay on.
 * A traced turn therefore pays them on every promise footprintjs, the runtime and the provider
 * make, whoever traces it; the engine+SDK floor (bench/targets.ts) is measured without them, as is
 * bench/child.ts's untraced mode. Here the hooks are turned on for a block by running it in a
 * context (context.with) and off again after it (the manager's disable(): no store is held then).
 *
 *   node --expose-gc --import tsx bench/contextTax.ts [--json] [--quick]
 */
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { registerInstrument, tracingInstrument } from '../src/index.js';
import { inProcessTracing } from './inProcessTracing.js';
import { cleanBlock, median } from './measure.js';
import { MESSAGE, referenceAgent } from './scenario.js';

const quick = process.argv.includes('--quick');
const BLOCK = quick ? 50 : 200;
const ROUNDS = quick ? 5 : 15;

const MODES = ['untraced', 'untraced-propagating', 'full', 'semantic'] as const;
type Mode = (typeof MODES)[number];

const { manager, provider } = inProcessTracing();
const agent = referenceAgent();
/** The context the propagating mode runs each turn in: made once, so its turns time the hooks, not making it. */
const PROPAGATED = ROOT_CONTEXT.setValue(createContextKey('bench.context-tax'), true);

/** One clean block of `mode`; afterwards no store is held, so the hooks are off for the next block. */
async function block(mode: Mode, turns: number): Promise<number> {
  const turn = mode === 'untraced-propagating' ? () => context.with(PROPAGATED, () => agent.run(MESSAGE)) : () => agent.run(MESSAGE);
  const traced = mode === 'full' || mode === 'semantic' ? () => registerInstrument(tracingInstrument({ tracerProvider: provider, detail: mode })) : undefined;
  const perTurn = await cleanBlock(turn, turns, () => provider.forceFlush(), traced);
  manager.disable();
  return perTurn;
}

// The propagating mode must propagate: a value set by context.with is still there after an await.
const carried = await context.with(PROPAGATED, async () => {
  await new Promise((resolve) => setImmediate(resolve));
  return context.active();
});
manager.disable();
if (carried !== PROPAGATED) throw new Error('bench/contextTax.ts: the context manager did not carry a context across an await');

for (const mode of MODES) await block(mode, quick ? 100 : 400);
const samples: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? MODES : [...MODES].reverse();
  for (const mode of order) (samples[mode] ??= []).push(await block(mode, BLOCK));
}
await provider.shutdown();

/** What `--json` prints, for bench/run.ts. */
export interface ContextTaxResult {
  rounds: number;
  block: number;
  /** Median process CPU µs per turn, by mode. */
  us: Record<Mode, number>;
  /** What the hooks add to the untraced turn, µs. */
  tax: number;
}

const us = Object.fromEntries(MODES.map((mode) => [mode, median(samples[mode]!)])) as Record<Mode, number>;
const result: ContextTaxResult = { rounds: ROUNDS, block: BLOCK, us, tax: us['untraced-propagating'] - us.untraced };
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  console.log(`context propagation (one process, ${ROUNDS} interleaved rounds of ${BLOCK} turns, process CPU µs per turn):`);
  console.log(`  ${MODES.map((mode) => `${mode} ${us[mode].toFixed(0)}`).join(', ')}`);
  console.log(`  AsyncLocalStorage's promise hooks add ${result.tax.toFixed(0)} µs to the untraced turn: ${((result.tax / us.full) * 100).toFixed(0)}% of the full traced turn, ${((result.tax / us.semantic) * 100).toFixed(0)}% of the semantic one`);
}
