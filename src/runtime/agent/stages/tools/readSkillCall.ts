/**
 * The read_skill tool: answered by the skill cursor, not by user code. An accepted request moves the
 * cursor and returns the skill's body; a refused one (the skill is not reachable from here) is an
 * error result the model sees, reported as footprint.skill.rejected and counted by the loop guard.
 */
import { emit } from '../../../../events/index.js';
import type { ToolCall } from '../../../providers/index.js';
import { FIXED_ERROR_TYPES, safeStringify } from '../../../run/index.js';
import type { SkillCursor, SkillTurnState } from '../../../skills/index.js';
import { unparsedArguments, type ToolOutcome } from '../../toolRunner.js';
import type { AgentConfig } from '../../config.js';
import { guardMove } from '../guardMoves.js';
import type { Turn } from '../../state.js';
import type { StageScope } from '../scope.js';

export interface ReadSkillCall {
  scope: StageScope;
  turn: Turn;
  config: AgentConfig;
  cursor: SkillCursor;
  /** The turn's skill state (changed in place when the request is accepted or refused). */
  skillState: SkillTurnState;
  call: ToolCall;
}

export function answerReadSkill({ scope, turn, config, cursor, skillState, call }: ReadSkillCall): ToolOutcome {
  // Arguments that are no JSON object name no skill: answered as any tool's are, not a refused move the loop guard counts.
  if (call.argsText !== undefined) return unparsedArguments(call, performance.now());
  const verdict = cursor.readSkill(skillState, call.args?.id);
  if (verdict.accepted) return { call, status: 'ok', text: verdict.text, durationMs: 0 };
  emit(scope, 'footprint.skill.rejected', {
    agentId: config.member.id,
    turnId: turn.turnId,
    requested: requestedSkill(call.args?.id),
    current: skillState.current ?? cursor.graph.entry,
    allowed: verdict.allowed,
    iteration: turn.iteration,
  });
  guardMove(scope, turn, config, { rejectedAt: skillState.current ?? cursor.graph.entry });
  return { call, status: 'error', text: verdict.text, durationMs: 0, error: { type: FIXED_ERROR_TYPES.skillRejected, message: verdict.text, ownText: true } };
}

/** The skill id a read_skill call asked for, as text; the model's arguments can be any JSON. */
export function requestedSkill(id: unknown): string {
  if (id === undefined || id === null) return '';
  return typeof id === 'string' ? id : safeStringify(id);
}
