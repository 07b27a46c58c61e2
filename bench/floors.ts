/**
 * The two floors issue #40 measures a traced turn against, defined once for every benchmark that
 * times them (bench/child.ts in a process of its own, bench/floorWorker.ts in a worker thread):
 * - the engine's: footprintjs running a linear chart of as many stages as the reference turn, one
 *   read and one write each, with read and write tracking off (per stage);
 * - the OTel SDK's: one span as the bridge makes it, with an explicit parent, explicit start and end
 *   times from the project clock and 3 attributes (per span).
 */
import { context, trace, type Tracer } from '@opentelemetry/api';
import { flowChart, FlowChartExecutor } from 'footprintjs';
import { now } from '../src/events/index.js';
import { quietLogger } from '../src/runtime/index.js';

/** One run of a linear chart of `stages` stages: the engine floor's unit of work. */
export function engineFloorRun(stages: number): () => Promise<unknown> {
  let builder = flowChart<{ n: number }>('S0', (s) => void (s.n = 0), 's0');
  for (let i = 1; i < stages; i++) builder = builder.addFunction(`S${i}`, (s) => void (s.n = s.n + 1), `s${i}`);
  const chart = builder.setLogger(quietLogger).build();
  return () => new FlowChartExecutor(chart, { readTracking: 'off', writeTracking: 'off' }).run({ input: {} });
}

/** Spans made per call of sdkFloorBatch's function. */
export const SDK_FLOOR_BATCH = 100;

/** SDK_FLOOR_BATCH spans under one root span of `tracer`: the SDK floor's unit of work. */
export function sdkFloorBatch(tracer: Tracer): () => Promise<void> {
  const root = tracer.startSpan('root');
  const parent = trace.setSpan(context.active(), root);
  return async () => {
    for (let i = 0; i < SDK_FLOOR_BATCH; i++) {
      const span = tracer.startSpan('Stage', { startTime: now(), attributes: { 'footprint.stage.id': 'call-llm', 'footprint.stage.runtime_id': 'call-llm#5', 'footprint.run.id': 'run_x' } }, parent);
      span.end(now());
    }
  };
}
