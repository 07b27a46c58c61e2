/**
 * The skill cursor: where in its skill graph an agent is, and how it moves. Once per iteration the
 * cursor advances (entry, a model's accepted read_skill pick, a declared route whose `when` holds,
 * or stay); read_skill requests are accepted when the target is reachable from the cursor and refused
 * with a teaching result otherwise. The state is plain JSON kept in the agent turn's record, so a paused
 * turn resumes exactly where it was.
 */
import { safeStringify } from '../run/index.js';
import type { Tool, ToolSource } from '../tools/index.js';
import type { Brain, Brains } from './brains.js';
import type { LastToolResult, SkillGraph } from './graph.js';

export const READ_SKILL = 'read_skill';

export interface SkillTurnState {
  current?: string;
  /** A read_skill target accepted last iteration; the cursor moves there at the next advance. */
  pendingPick?: string;
  /** read_skill refusals in this turn. */
  rejections: number;
  escalated: boolean;
}

export interface CursorMove {
  from?: string;
  to: string;
  cause: 'entry' | 'edge' | 'model_pick' | 'stay';
  edgeLabel?: string;
}

export type ReadSkillVerdict =
  | { accepted: true; target: string; text: string }
  | { accepted: false; allowed: string[]; text: string };

export const READ_SKILL_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'string', description: 'The id of the skill to move to.' } },
  required: ['id'],
  additionalProperties: false,
};

export class SkillCursor {
  constructor(
    readonly graph: SkillGraph,
    readonly brains: Brains,
  ) {}

  initial(): SkillTurnState {
    return { rejections: 0, escalated: false };
  }

  advance(state: SkillTurnState, last: LastToolResult | undefined): CursorMove {
    const from = state.current;
    let move: CursorMove;
    if (from === undefined) {
      move = { to: this.graph.entry, cause: 'entry', edgeLabel: this.graph.entryLabel };
    } else if (state.pendingPick !== undefined) {
      move = { from, to: state.pendingPick, cause: 'model_pick' };
    } else {
      const edge = this.graph.edgesFrom(from).find((e) => e.when !== undefined && safeWhen(e.when, last));
      move = edge ? { from, to: edge.to, cause: 'edge', edgeLabel: edge.label } : { from, to: from, cause: 'stay' };
    }
    state.current = move.to;
    state.pendingPick = undefined;
    return move;
  }

  readSkill(state: SkillTurnState, requested: unknown): ReadSkillVerdict {
    const current = state.current ?? this.graph.entry;
    const target = typeof requested === 'string' ? requested : '';
    const allowed = this.graph.reachableFrom(current);
    if (target === current) {
      // The last accepted request of a reply decides: staying cancels a move asked for earlier in it.
      state.pendingPick = undefined;
      return { accepted: true, target, text: `You are already in skill "${target}".` };
    }
    const skill = this.graph.skills.get(target);
    if (skill && allowed.includes(target)) {
      state.pendingPick = target;
      return { accepted: true, target, text: `Moving to skill "${target}". Its instructions:\n${skill.body}` };
    }
    state.rejections++;
    const menu = allowed.map((id) => `"${id}" (${this.graph.skills.get(id)?.description ?? ''})`).join(', ');
    const why = skill ? `is not reachable from "${current}"` : 'is not a skill of this agent';
    // An id that is no string is named as the model gave it (42, not ""), as footprint.skill.rejected's `requested` names it.
    const asked = typeof requested === 'string' || requested === undefined || requested === null ? `"${target}"` : safeStringify(requested);
    return {
      accepted: false,
      allowed,
      text: `read_skill refused: ${asked} ${why}. From "${current}" you may read: ${menu || 'no other skill'}. Continue with the current skill or pick one of those.`,
    };
  }

  body(state: SkillTurnState): string {
    const skill = state.current === undefined ? undefined : this.graph.skills.get(state.current);
    return skill ? `## Current skill: ${skill.id}\n${skill.body}` : '';
  }

  tools(state: SkillTurnState): readonly (Tool | ToolSource)[] {
    const skill = state.current === undefined ? undefined : this.graph.skills.get(state.current);
    return skill?.tools ?? [];
  }

  readSkillDescription(state: SkillTurnState): string {
    const current = state.current ?? this.graph.entry;
    const allowed = this.graph.reachableFrom(current);
    return `Move to another skill. From "${current}" you may read: ${allowed.join(', ') || 'none'}.`;
  }

  brain(state: SkillTurnState): Brain {
    if (state.escalated && this.brains.escalation) return this.brains.escalation;
    return this.brains.forSkill(state.current);
  }
}

function safeWhen(when: (last: LastToolResult | undefined) => boolean, last: LastToolResult | undefined): boolean {
  try {
    return when(last) === true;
  } catch {
    return false;
  }
}
