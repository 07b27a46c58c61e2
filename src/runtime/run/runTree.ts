/**
 * The run tree: what the runtime publishes of a runner tree, read-only, once per top-level runner
 * (its member index builds it, members.ts): every member by its mount path, with what it is (kind,
 * id, name, the route it runs under, its composition's description of it), its model settings, whether
 * it moves over a skill graph, and where its own model call mounts. Instruments (telemetry, metrics)
 * read the runner tree only through it, so they hold no runtime class.
 */
import type { RunnerKind } from '../../events/index.js';

/**
 * What a runner's model settings are before it runs: telemetry names a span with them when the
 * span starts (the GenAI conventions mark provider and model as sampling-relevant).
 */
export interface RunnerProfile {
  readonly provider?: string;
  readonly model?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

/** The key of the method a runner says what the run tree should know of it with (no public name: the tree is the surface). */
export const RUNNER_FACTS = Symbol('footprint-otel.runnerFacts');

/** What a runner says of itself for the run tree, beyond kind, id and name; runners that call a model say more. */
export interface RunnerFacts {
  readonly profile?: RunnerProfile;
  /** It moves over a skill graph (an agent with one: its loop guard can trip). */
  readonly skillGraph?: boolean;
  /** The mount id of the model call it makes as a step of its own, mounted as a subflow but no member (a router's decision). */
  readonly modelCallMount?: string;
}

export interface RunTreeNode {
  /** The mount path from the top-level runner ([] for it). */
  readonly path: readonly string[];
  /** The path as footprintjs's subflow key ('' for the top-level runner). */
  readonly key: string;
  readonly kind: RunnerKind;
  readonly id: string;
  readonly name: string;
  /** The routing choices in force for it (EventMeta.route). */
  readonly route: string;
  /** What it does, as its composition describes it (an llmSwarm roster entry's description). */
  readonly description?: string;
  readonly profile: RunnerProfile;
  readonly skillGraph: boolean;
  readonly modelCallMount?: string;
  readonly children: readonly RunTreeNode[];
}

export interface RunTree {
  readonly root: RunTreeNode;
  /** Every node, the top-level runner first, parents before their children. */
  readonly nodes: readonly RunTreeNode[];
}
