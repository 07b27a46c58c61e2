/**
 * The scope factory of a runner's executor: the chart's own (footprintjs's TypedScope over a
 * ScopeFacade), handed each stage an env of its own (context.ts stageEnv) that carries the runtime
 * stage id its typed events are stamped with (events/emit.ts hands them to the run's hub directly)
 * and the stage's input. footprintjs's ScopeFacade deep-freezes a copy of the input it is given for
 * every stage; our stages only read their input (context.ts stageInput), so the facade is given none.
 * footprintjs hands subflow stages the same factory, so a composed run's every stage gets its env here.
 * A factory that is given no run env (a chart on a bare executor) passes everything through unchanged.
 */
import type { FlowChart, ScopeFactory } from 'footprintjs';
import { createTypedScopeFactory } from 'footprintjs/advanced';
import { isRunEnv, stageEnv } from './context.js';

const factories = new WeakMap<FlowChart, ScopeFactory>();

export function stageScopeFactory(chart: FlowChart): ScopeFactory {
  let factory = factories.get(chart);
  if (factory === undefined) {
    const scopeOf: ScopeFactory = chart.scopeFactory ?? createTypedScopeFactory();
    factory = (context, stageName, input, env) =>
      isRunEnv(env) ? scopeOf(context, stageName, undefined, stageEnv(env, context.runtimeStageId, input) as typeof env) : scopeOf(context, stageName, input, env);
    factories.set(chart, factory);
  }
  return factory;
}
