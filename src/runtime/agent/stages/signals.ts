/**
 * A loop-guard trip reaches the turn here (guardMoves.ts left it in the turn's record): with onTrip
 * 'stop' the turn ends stopped early; with 'escalate' the rest of the turn runs on the escalation
 * brain (when one is set).
 */
import { emit } from '../../../events/index.js';
import type { AgentConfig } from '../config.js';
import type { Turn } from '../state.js';
import type { StageScope } from './scope.js';

export function applyTrip(scope: StageScope, turn: Turn, config: AgentConfig): void {
  const action = turn.pendingTrip;
  if (action === undefined) return;
  turn.pendingTrip = undefined;
  if (action === 'stop') {
    turn.stopped = { reason: 'loop_guard', iteration: turn.iteration };
    return;
  }
  escalate(scope, turn, config, 'loop_guard');
}

/** Switches the rest of the turn to the escalation brain; emits skill.escalated once per turn. */
export function escalate(scope: StageScope, turn: Turn, config: AgentConfig, reason: 'refusals' | 'loop_guard'): void {
  const escalation = config.cursor?.brains.escalation;
  const state = turn.skill;
  if (!escalation || !state || state.escalated) return;
  const from = config.cursor!.brains.forSkill(state.current);
  turn.skill = { ...state, escalated: true };
  emit(scope, 'footprint.skill.escalated', {
    agentId: config.member.id,
    from: { provider: from.provider.name, model: from.model },
    to: { provider: escalation.provider.name, model: escalation.model },
    refusals: state.rejections,
    reason,
    iteration: turn.iteration,
  });
}
