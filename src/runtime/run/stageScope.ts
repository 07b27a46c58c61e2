/**
 * The scope factory of a runner's executor: the chart's own (footprintjs's TypedScope over a
 * ScopeFacade), handed each stage an env of its own (context.ts stageEnv) that carries the runtime
 * stage id its typed events are stamped with (events/emit.ts hands them to the run's hub directly),
 * the stage's input, and the stage execution its body reports to the run's hub (chart.ts stage()).
 * footprintjs's ScopeFacade deep-freezes a copy of the input it is given for every stage; our stages
 * only read their input (context.ts stageInput), so the facade is given none.
 * footprintjs hands subflow stages the same factory, so a composed run's every stage gets its env here.
 * Only a runner's executor has this factory, and it always runs with its run's env (runner.ts).
 */
import type { FlowChart, ScopeFactory } from 'footprintjs';
import { createTypedScopeFactory } from 'footprintjs/advanced';
import { stageEnv, type RunEnv } from './context.js';

const factories = new WeakMap<FlowChart, ScopeFactory>();

export function stageScopeFactory(chart: FlowChart): ScopeFactory {
  let factory = factories.get(chart);
  if (factory === undefined) {
    const scopeOf: ScopeFactory = chart.scopeFactory ?? createTypedScopeFactory();
    factory = (context, stageName, input, env) => scopeOf(context, stageName, undefined, stageEnv(env as RunEnv, context, stageName, input) as typeof env);
    factories.set(chart, factory);
  }
  return factory;
}
