/**
 * The smallest reproduction of what footprintjs 9.24.0 copies per stage, independent of this
 * project: a four-stage linear chart on a one-number state, counting the engine's structuredClone
 * calls per stage. A stage that writes one key costs 7 clones (the transaction buffer's base and
 * working copy, the commit payload, two redaction passes, the new shared state, the written value),
 * each further key 2 more, a stage that only reads none; the count does not depend on the state's
 * size, so a per-stage floor remains however small the state is.
 *
 *   npx tsx bench/footprintjsClones.ts
 */
import { flowChart, FlowChartExecutor } from 'footprintjs';

const chart = flowChart<{ n: number; m?: number }>('WriteOne', (s) => void (s.n = 0), 'write-one')
  .addFunction('WriteOneAgain', (s) => void (s.n = s.n + 1), 'write-one-again')
  .addFunction('WriteTwo', (s) => {
    s.n = s.n + 1;
    s.m = 1;
  }, 'write-two')
  .addFunction('ReadOnly', (s) => void s.n, 'read-only')
  .build();

const clonesByStage = new Map<string, number>();
let current = '(outside stages)';
const executor = new FlowChartExecutor(chart, { readTracking: 'off', writeTracking: 'off' });
executor.attachScopeRecorder({ id: 'count-clones', onStageStart: (e) => void (current = e.stageId) });
const original = globalThis.structuredClone;
globalThis.structuredClone = ((value: unknown, options?: StructuredSerializeOptions) => {
  clonesByStage.set(current, (clonesByStage.get(current) ?? 0) + 1);
  return original(value, options);
}) as typeof structuredClone;
try {
  await executor.run({ input: {} });
} finally {
  globalThis.structuredClone = original;
}
for (const stage of ['write-one', 'write-one-again', 'write-two', 'read-only']) {
  console.log(`${stage.padEnd(16)} ${clonesByStage.get(stage) ?? 0} structuredClone calls`);
}
