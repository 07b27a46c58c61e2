/**
 * The agent's own loop guard at work: each skill-graph hop and read_skill refusal of the turn goes
 * through the turn's guard (skills/loopGuard.ts); a trip is reported as footprint.loop_guard.trip at the
 * stage that found it, and with onTrip 'stop' or 'escalate' the turn acts on it at its next model
 * call (signals.ts), before any more money is spent. The guard state is part of the turn's record.
 */
import { emit } from '../../../events/index.js';
import { guardHop, guardRejection, type Finding, type Spend, type TurnGuard } from '../../skills/index.js';
import type { AgentConfig } from '../config.js';
import type { Turn } from '../state.js';
import type { StageScope } from './scope.js';

export type GuardedMove = { hop: { from?: string; to: string } } | { rejectedAt: string };

export function guardMove(scope: StageScope, turn: Turn, config: AgentConfig, move: GuardedMove): void {
  const loopGuard = config.loopGuard;
  if (!loopGuard) return;
  // the turn's own guard, changed in place by the guard functions (the record is no footprintjs state)
  const guard: TurnGuard = (turn.loopGuard ??= {});
  const { tokens, costUsd } = turn.totals;
  const spent: Spend = { tokens: tokens.input + tokens.output, costUsd };
  const finding =
    'hop' in move ? guardHop(guard, move.hop, spent, loopGuard.limits) : guardRejection(guard, move.rejectedAt, spent, loopGuard.limits);
  if (finding) trip(scope, turn, config, finding);
}

function trip(scope: StageScope, turn: Turn, config: AgentConfig, finding: Finding): void {
  const action = config.loopGuard!.onTrip;
  const { since, ...what } = finding;
  if (action !== 'label' && turn.pendingTrip === undefined) turn.pendingTrip = action;
  emit(scope, 'footprint.loop_guard.trip', {
    agentId: config.member.id,
    turnId: turn.turnId,
    ...what,
    iteration: turn.iteration,
    tokensSinceLoop: since.tokens,
    costSinceLoopUsd: since.costUsd,
    action,
  });
}
