/**
 * The deprecated `footprint.cost.tick`, kept one release for listeners written against it: derived
 * here, and only here, from an answered call's llm_end record (and the turn's cost so far), so it
 * says exactly what the record says. Nothing in footprint-otel reads it; listeners should read
 * llm_end's `usage` and `cost` (docs/api.md).
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
    ...(record.usage ? { tokens: record.usage } : {}),
    usd: record.cost.usd,
    cumulativeUsd: turnCostUsd,
    priced: record.cost.priced,
  };
}
