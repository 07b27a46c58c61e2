/**
 * The deprecated events, kept one release for listeners written against them, each derived here, and
 * only here, from the event that replaced it, so it says exactly what that event says. Nothing in
 * footprint-otel reads them (docs/api.md says what to read instead):
 *
 * - `footprint.cost.tick`, from an answered call's record (`footprint.stream.llm_end`) and the turn's
 *   cost so far;
 * - `footprint.cost.limit_hit`, from `footprint.agent.iteration_cap` (an iteration cap is no budget).
 */
import type { EventPayloads, ModelCallRecord } from '../../../events/index.js';

export function deprecatedCostTick(record: ModelCallRecord, turnCostUsd: number): EventPayloads['footprint.cost.tick'] {
  return {
    callId: record.callId,
    agentId: record.agentId,
    turnId: record.turnId,
    provider: record.provider,
    model: record.model,
    skill: record.skill ?? '',
    brain: record.brain.via,
    usd: record.cost.usd,
    cumulativeUsd: turnCostUsd,
    priced: record.cost.priced,
    ...(record.usage ? { tokens: record.usage } : {}),
  };
}

export function deprecatedLimitHit(cap: EventPayloads['footprint.agent.iteration_cap']): EventPayloads['footprint.cost.limit_hit'] {
  return { agentId: cap.agentId, kind: 'max_iterations', limit: cap.maxIterations, actual: cap.iteration };
}
