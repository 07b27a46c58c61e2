/**
 * Maps a stage's subflow path to the runner (member) that owns it. Compositions mount children as
 * footprintjs subflows, so the runtime stage id 'desk/billing/call-llm#7' belongs to the member
 * mounted at 'desk/billing'. Built once per top-level runner; the tree is fixed after build(). It
 * also builds the run tree instruments read (runTree.ts), from the same walk, under the one depth limit.
 */
import type { FlowChart } from 'footprintjs';
import { routeWithin, stageIds, type ListenerSet, type MemberRef, type RunnerKind } from '../../events/index.js';
import type { RunInstrument } from './instruments.js';
import { RUNNER_FACTS, type RunnerFacts, type RunTree, type RunTreeNode } from './runTree.js';

/** How deep mounts are followed (runner trees are shallow; this bounds a pathological one): a deeper member's events are its nearest indexed ancestor's. */
export const MAX_MOUNT_DEPTH = 16;

/** What the index reads of a runner (Runner has it; structural, so this file needs no runner class). */
export interface TreeRunner {
  readonly kind: RunnerKind;
  readonly id: string;
  readonly name: string;
  readonly listeners: ListenerSet;
  /** Its chart (the runner's hub reads whether it may emit through footprintjs: chart.ts runtimeChart). */
  chart(): FlowChart;
  members(): readonly { mountId: string; runner: TreeRunner; description?: string }[];
  routesTo(mountId: string): boolean;
  ownInstruments(): readonly RunInstrument[];
  [RUNNER_FACTS](): RunnerFacts;
}

export interface MemberEntry {
  runner: TreeRunner;
  member: MemberRef;
  /** 'kind:id' from the top-level runner down to this member. */
  compositionPath: string[];
  /** Mount path key ('' for the top-level runner). */
  key: string;
  /** Routing choices in force for this member (see EventMeta.route). */
  route: string;
}

export class MemberIndex {
  private readonly byPath = new Map<string, MemberEntry>();
  readonly maxDepth: number;
  /** The run tree, published to instruments at every run (RunStart.tree). */
  readonly tree: RunTree;

  constructor(root: TreeRunner) {
    let depth = 0;
    const nodes: RunTreeNode[] = [];
    const walk = (runner: TreeRunner, path: string[], chain: string[], route: string, description?: string): RunTreeNode => {
      const compositionPath = [...chain, `${runner.kind}:${runner.id}`];
      const key = stageIds.pathKey(path);
      this.byPath.set(key, { runner, member: { kind: runner.kind, id: runner.id }, compositionPath, key, route });
      depth = Math.max(depth, path.length);
      const facts = runner[RUNNER_FACTS]();
      const children: RunTreeNode[] = [];
      const node: RunTreeNode = Object.freeze({
        path: Object.freeze([...path]),
        key,
        kind: runner.kind,
        id: runner.id,
        name: runner.name,
        route,
        description,
        profile: Object.freeze({ ...facts.profile }),
        skillGraph: facts.skillGraph === true,
        modelCallMount: facts.modelCallMount,
        children,
      });
      nodes.push(node);
      for (const child of path.length < MAX_MOUNT_DEPTH ? runner.members() : []) {
        const childRoute = runner.routesTo(child.mountId) ? routeWithin(route, runner.id, child.mountId) : route;
        children.push(walk(child.runner, [...path, child.mountId], compositionPath, childRoute, child.description));
      }
      Object.freeze(children);
      return node;
    };
    const rootNode = walk(root, [], [], '');
    this.maxDepth = depth;
    this.tree = Object.freeze({ root: rootNode, nodes: Object.freeze(nodes) });
  }

  /** The emitting member first, then its ancestors up to the top-level runner. */
  chain(subflowPath: readonly string[]): MemberEntry[] {
    const out: MemberEntry[] = [];
    for (const key of stageIds.ancestorKeys(subflowPath, { includeRoot: true, maxDepth: this.maxDepth })) {
      const entry = this.byPath.get(key);
      if (entry) out.push(entry);
    }
    return out;
  }

  entries(): Iterable<MemberEntry> {
    return this.byPath.values();
  }
}
