/**
 * The chart a runner's executor runs: the built chart without its build-time structure. footprintjs
 * deep-copies a chart's build-time structure on every run (a JSON round trip in
 * RuntimeStructureManager.init) to keep a runtime structure that only the executor's
 * getRuntimeStructure() reads and no runner does; without the structure it skips that work, and
 * nothing else of a run changes (every update of the runtime structure is a no-op then). About 4% of
 * an untraced reference turn (docs/benchmarks.md). The built chart itself keeps its structure: a
 * composition mounts it, and a checkpoint's binding digests it (checkpoint.ts).
 */
import type { FlowChart } from 'footprintjs';

const executed = new WeakMap<FlowChart, FlowChart>();

export function executedChart(chart: FlowChart): FlowChart {
  let lean = executed.get(chart);
  if (lean === undefined) {
    // The type says every chart has a structure; the executor treats a missing one as "do not track".
    lean = { ...chart, buildTimeStructure: undefined as unknown as FlowChart['buildTimeStructure'] };
    executed.set(chart, lean);
  }
  return lean;
}
