/**
 * skillGraph(): which skills exist, where the agent enters, and which moves between them are allowed.
 * build() refuses a graph that cannot work (no entry, duplicate ids, edges to skills that are not in
 * the graph, skills no path from the entry reaches) with errors that say what to fix.
 */
import { ConfigError } from '../run/index.js';
import type { Skill } from './skill.js';

/** What an edge's `when` predicate sees: the last tool call of the previous iteration. */
export interface LastToolResult {
  toolName: string;
  result: string;
  status: string;
}

/** An allowed move of the skill cursor between two skills (docs/architecture.md, "route" and its neighbours). */
export interface SkillEdge {
  from: string;
  to: string;
  label?: string;
  when?: (last: LastToolResult | undefined) => boolean;
}

export interface SkillGraph {
  readonly entry: string;
  readonly entryLabel?: string;
  readonly skills: ReadonlyMap<string, Skill>;
  readonly edges: readonly SkillEdge[];
  /** Skills a read_skill call may move to from `from` (its declared out-edges). */
  reachableFrom(from: string): string[];
  edgesFrom(from: string): readonly SkillEdge[];
}

type SkillRef = Skill | string;

export class SkillGraphBuilder {
  private readonly skills: Skill[] = [];
  private entrySkill?: string;
  private entryLabel?: string;
  private readonly edges: SkillEdge[] = [];

  /** The skill the cursor starts on. Adds the skill to the graph. */
  entry(skill: Skill, options: { label?: string } = {}): this {
    this.add(skill);
    this.entrySkill = skill.id;
    this.entryLabel = options.label;
    return this;
  }

  /** Declares a skill without edges (it still has to be reachable). */
  skill(skill: Skill): this {
    this.add(skill);
    return this;
  }

  /** Allows a move from → to. With `when`, the cursor moves on its own when the predicate holds. */
  edge(from: SkillRef, to: SkillRef, options: { label?: string; when?: SkillEdge['when'] } = {}): this {
    if (typeof from !== 'string') this.add(from);
    if (typeof to !== 'string') this.add(to);
    this.edges.push({ from: idOf(from), to: idOf(to), label: options.label, when: options.when });
    return this;
  }

  build(): SkillGraph {
    const byId = new Map<string, Skill>();
    for (const skill of this.skills) {
      const existing = byId.get(skill.id);
      if (existing && existing !== skill) {
        throw new ConfigError(`skill graph: two different skills share the id "${skill.id}"`);
      }
      byId.set(skill.id, skill);
    }
    if (!this.entrySkill) throw new ConfigError('skill graph: no entry skill (call .entry(skill))');
    for (const edge of this.edges) {
      for (const end of [edge.from, edge.to]) {
        if (!byId.has(end)) {
          throw new ConfigError(
            `skill graph: edge ${edge.from} -> ${edge.to} names "${end}", which is not a skill of the graph`,
          );
        }
      }
    }
    const reached = new Set([this.entrySkill]);
    const queue = [this.entrySkill];
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const edge of this.edges) {
        if (edge.from === at && !reached.has(edge.to)) {
          reached.add(edge.to);
          queue.push(edge.to);
        }
      }
    }
    const unreachable = [...byId.keys()].filter((id) => !reached.has(id));
    if (unreachable.length > 0) {
      throw new ConfigError(
        `skill graph: ${unreachable.map((id) => `"${id}"`).join(', ')} cannot be reached from the entry "${this.entrySkill}"`,
      );
    }
    const edges = Object.freeze([...this.edges]);
    const outEdges = new Map<string, SkillEdge[]>();
    for (const edge of edges) {
      const list = outEdges.get(edge.from) ?? [];
      list.push(edge);
      outEdges.set(edge.from, list);
    }
    return Object.freeze({
      entry: this.entrySkill,
      entryLabel: this.entryLabel,
      skills: byId,
      edges,
      reachableFrom: (from: string) => [...new Set((outEdges.get(from) ?? []).map((e) => e.to))],
      edgesFrom: (from: string) => outEdges.get(from) ?? [],
    });
  }

  private add(skill: Skill): void {
    if (!this.skills.includes(skill)) this.skills.push(skill);
  }
}

export function skillGraph(): SkillGraphBuilder {
  return new SkillGraphBuilder();
}

function idOf(ref: SkillRef): string {
  return typeof ref === 'string' ? ref : ref.id;
}
