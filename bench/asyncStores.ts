/**
 * What one more enabled AsyncLocalStorage costs an untraced reference turn: every enabled store
 * copies itself onto each promise the process creates, whoever reads it. Blocks with an extra store
 * enabled (a run entered in it) and disabled alternate in ONE process; the median per-pair ratio is
 * printed. With AB_OTEL=1 OTel's AsyncLocalStorage context manager is enabled too (as in a traced
 * app), so the ratio is that of one store against two.
 *
 *   node --import tsx --import ./bench/fromDist.mjs bench/asyncStores.ts
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MESSAGE, referenceAgent } from './scenario.js';
import { cpuPerCall, median } from './measure.js';

const otel = process.env.AB_OTEL === '1';
if (otel) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  context.with(context.active(), () => {});
}
const agent = referenceAgent();
const extra = new AsyncLocalStorage<number>();

async function block(withExtra: boolean, turns: number): Promise<number> {
  if (!withExtra) extra.disable();
  return cpuPerCall(() => (withExtra ? extra.run(1, () => agent.run(MESSAGE)) : agent.run(MESSAGE)), turns);
}

await block(true, 300);
await block(false, 300);
const ratios: number[] = [];
for (let i = 0; i < 15; i++) {
  const withExtra = await block(true, 100);
  ratios.push((await block(false, 100)) / withExtra);
}
console.log(`${otel ? "with OTel's store enabled: one store" : 'no other store: none'} / one more: ${median(ratios).toFixed(3)}x (median of 15 pairs of 100 turns)`);
