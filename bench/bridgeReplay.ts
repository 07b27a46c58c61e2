/**
 * The bridge's own cost, without the engine: one real turn's stage hooks and typed events are
 * recorded once, then replayed into a fresh TracedRun (the object the tracing instrument builds per
 * run) and finished, as often as the benchmark asks. What the replay costs is our code plus the OTel
 * SDK; what a traced turn costs beyond the untraced turn and beyond this replay appears only when the
 * engine runs traced (context propagation through its promises, garbage).
 */
import { ROOT_CONTEXT, type Tracer } from '@opentelemetry/api';
import type { StageEvent } from 'footprintjs';
import { registerInstrument, type TypedEvent } from '../src/index.js';
import { TracedRun } from '../src/otel/wiring/tracedRun.js';

type Step = { hook: 'onStageStart' | 'onStageEnd'; event: StageEvent } | { hook: 'typed'; event: TypedEvent };

/** The stage hooks and typed events of one run of `turn`, in the order the bridge receives them. */
export async function recordTurn(turn: () => Promise<unknown>): Promise<Step[]> {
  const steps: Step[] = [];
  const stop = registerInstrument({
    id: 'bench.record-turn',
    start(run) {
      run.executor.attachScopeRecorder({
        id: 'bench.record-turn',
        onStageStart: (event) => void steps.push({ hook: 'onStageStart', event: { ...event } }),
        onStageEnd: (event) => void steps.push({ hook: 'onStageEnd', event: { ...event } }),
      });
      run.events.subscribe((event) => void steps.push({ hook: 'typed', event }));
      return {};
    },
  });
  try {
    await turn();
  } finally {
    stop();
  }
  return steps;
}

/** One replay: a new traced run takes every recorded step, then finishes answered. */
export function replayTurn(steps: readonly Step[], options: { tracer: Tracer; detail: 'full' | 'semantic' }): void {
  const run = new TracedRun({
    source: 'runner',
    resolved: { tracer: options.tracer, detail: options.detail, capture: false, semconv: 'current', linkLimit: 128 },
    name: 'invoke_agent',
    attributes: {},
    parent: ROOT_CONTEXT,
    runId: 'run_replay',
  });
  // A semantic runner run has no recorder: its stage hooks go nowhere, as in a real run.
  const hooks = (run.recorder ?? {}) as { onStageStart?: (e: StageEvent) => void; onStageEnd?: (e: StageEvent) => void };
  for (const step of steps) {
    if (step.hook === 'typed') run.onEvent(step.event);
    else hooks[step.hook]?.(step.event);
  }
  run.finish({ status: 'ok', output: '' });
}
