/**
 * Where a traced turn's extra time goes, piece by piece, in ONE process: the reference turn untraced,
 * then with instruments that each do a part of what the tracing instrument does (a run span and the
 * run's context only; a TracedRun that hears no events; one that hears them; the real instrument),
 * blocks interleaved, each as a ratio to the untraced block of the same round (median over rounds).
 * Also the time spent inside the bridge's typed-event handler per turn, by event type, where it runs
 * (among the engine's work): the part a replay of the same events in a tight loop does not show.
 *
 *   node --import tsx --import ./bench/fromDist.mjs bench/tracingAblation.ts [semantic|full]
 */
import { context, trace } from '@opentelemetry/api';
import { registerInstrument, tracingInstrument, type RunInstrument, type TypedEvent } from '../src/index.js';
import { TracedRun } from '../src/otel/wiring/tracedRun.js';
import { inProcessTracing } from './inProcessTracing.js';
import { MESSAGE, referenceAgent } from './scenario.js';
import { cpuPerCall, median } from './measure.js';

const detail = process.argv[2] === 'full' ? 'full' : 'semantic';
const BLOCK = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const { provider } = inProcessTracing();
const tracer = provider.getTracer('bench-ablation');
const agent = referenceAgent();
const insideByType = new Map<string, number>();
let measuredTurns = 0;

/** A TracedRun as the tracing instrument builds it (without the runner's identity), with or without its recorder and events. */
function partial(id: string, { recorder, events }: { recorder: boolean; events: boolean }): RunInstrument {
  return {
    id,
    start(run) {
      const traced = new TracedRun({ source: 'runner', resolved: { tracer, detail, capture: false, semconv: 'current', linkLimit: 128 }, name: 'run', attributes: {}, parent: context.active(), runId: run.runId });
      if (recorder && traced.recorder) run.executor.attachCombinedRecorder(traced.recorder, { delivery: 'inline' });
      const unsubscribe = events
        ? run.events.subscribe((event: TypedEvent) => {
            const started = performance.now();
            traced.onEvent(event);
            insideByType.set(event.type, (insideByType.get(event.type) ?? 0) + performance.now() - started);
          })
        : () => {};
      if (events) measuredTurns++;
      return { around: (call) => traced.within(call), finished: (outcome) => (unsubscribe(), traced.finish(outcome)) };
    },
  };
}

const modes: Record<string, () => () => void> = {
  untraced: () => () => {},
  'run span + context.with': () =>
    registerInstrument({
      id: 'bench.root-only',
      start() {
        const span = tracer.startSpan('run');
        const ctx = trace.setSpan(context.active(), span);
        return { around: (call) => context.with(ctx, call), finished: () => span.end() };
      },
    }),
  'TracedRun + recorder, no events': () => registerInstrument(partial('bench.no-events', { recorder: true, events: false })),
  'TracedRun + recorder + events': () => registerInstrument(partial('bench.events', { recorder: true, events: true })),
  'the tracing instrument': () => registerInstrument(tracingInstrument({ tracerProvider: provider, detail })),
};

async function block(name: string, turns: number): Promise<number> {
  const undo = modes[name]!();
  const perTurn = await cpuPerCall(() => agent.run(MESSAGE), turns);
  undo();
  return perTurn;
}

for (const name of Object.keys(modes)) await block(name, 300);
insideByType.clear();
measuredTurns = 0;
const ratios: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  let untraced = 1;
  for (const name of Object.keys(modes)) {
    const us = await block(name, BLOCK);
    if (name === 'untraced') untraced = us;
    (ratios[name] ??= []).push(us / untraced);
  }
}
await provider.shutdown();
console.log(`detail ${detail}: CPU per turn as a ratio to the untraced turn of the same round (median of ${ROUNDS} rounds of ${BLOCK} turns)`);
for (const [name, xs] of Object.entries(ratios)) console.log(`  ${name.padEnd(32)} ${median(xs).toFixed(3)}x`);
let inside = 0;
for (const ms of insideByType.values()) inside += ms;
console.log(`wall time inside the typed-event handler, per turn: ${((inside * 1000) / measuredTurns).toFixed(0)} µs`);
for (const [type, ms] of [...insideByType].sort((a, b) => b[1] - a[1])) console.log(`  ${type.padEnd(36)} ${((ms * 1000) / measuredTurns).toFixed(1)} µs`);
