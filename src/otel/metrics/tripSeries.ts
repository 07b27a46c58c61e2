/**
 * Pre-creates the loop-guard trip counter (footprint.loop_guard.trips; footprint.route.trips in the
 * v1.41 mode, both in the both mode) at 0 for every trip kind of every agent that can trip, under the
 * route it runs under (an agent mounted at two routes trips apart at each), because a counter series
 * first exported at 1 is invisible to increase()/rate(): the first trip would never alert. Agents are
 * primed as early as the runtime lets us see them: at the first run of a top-level runner, from its
 * member tree (every agent with a skill graph has a loop guard), and at any agent turn that reports a
 * skill graph.
 *
 * Residual risk: the 0 only reaches the backend with the next metric export. If an agent trips in its
 * very first run before one export happened, its series is still born at 1; an export interval
 * shorter than the time to a process's first trip (or a forceFlush after startup runs) avoids it.
 */
import type { Counter } from '@opentelemetry/api';
import type { EventPayloads } from '../../events/index.js';
import type { RunTree } from '../../runtime/index.js';
import { ATTR, metricValue } from './metricAttributes.js';

type TripKind = EventPayloads['footprint.loop_guard.trip']['kind'];

/** Every trip kind; typed as a record so a new kind in the event catalog fails the typecheck here. */
const TRIP_KINDS = Object.keys({ ping_pong: true, rejected_cap: true } satisfies Record<TripKind, true>) as TripKind[];

/** Agents (at their routes) primed per meter; ids come from code, the cap only guards against a runaway id source. */
const MAX_PRIMED_AGENTS = 1000;

export class TripSeries {
  private readonly agents = new Set<string>();
  /** Trees primed: a runner's tree is one object for all its runs. */
  private readonly trees = new WeakSet<RunTree>();

  constructor(private readonly trips: readonly Counter[]) {}

  /** Primes every agent with a skill graph in the tree of a top-level runner (once per runner). */
  primeTree(tree: RunTree): void {
    if (this.trees.has(tree)) return;
    this.trees.add(tree);
    for (const node of tree.nodes) if (node.skillGraph) this.prime(node.id, node.route);
  }

  /** Runs at every turn that reports a skill graph: an agent already primed at its route costs only the key. */
  prime(agentId: string, route: string): void {
    const agent = metricValue(agentId);
    const at = metricValue(route);
    const key = `${agent}\u0000${at}`;
    if (this.agents.has(key) || this.agents.size >= MAX_PRIMED_AGENTS) return;
    this.agents.add(key);
    for (const kind of TRIP_KINDS) {
      for (const counter of this.trips) counter.add(0, { [ATTR.tripKind]: kind, [ATTR.agent]: agent, [ATTR.route]: at });
    }
  }
}
