/**
 * One run's metrics: listens to the run's typed events (the same ones the trace bridge turns into
 * spans, so spans and metrics never disagree) and records model-call tokens and durations, a streamed
 * call's chunk timings (from its end, never per chunk event), cost,
 * routing decisions, trips, escalations and rejections as they happen, then the run itself when it
 * ends. State is per run and holds only what in-flight events need (a model call's skill and
 * operation until it ends, each agent's current skill). Values from outside (a server's response
 * model, a failed call's error type) are bounded by outsideValues.ts.
 */
import type { Attributes } from '@opentelemetry/api';
import { handleEvent, routeWithin, stageIds, type EventHandlers, type EventMeta, type EventPayloads, type TypedEvent } from '../../events/index.js';
import { outcomeLabel, type RunOutcome, type RunSession, type RunStart } from '../../runtime/index.js';
import { providerName } from '../encoding/index.js';
import { ATTR, metricValue } from './metricAttributes.js';
import type { RunInstruments } from './instrumentSet.js';
import type { TripSeries } from './tripSeries.js';
import { modelCallErrorType, type ResponseModels } from './outsideValues.js';

interface OpenCall {
  operation: string;
  skill: string;
}

export function recordRun(start: RunStart, instruments: RunInstruments, trips: TripSeries, responseModels: ResponseModels): RunSession {
  const startedAt = performance.now();
  const calls = new Map<string, OpenCall>();
  /** Current skill per mounted agent (keyed by its subflow mount path). */
  const skills = new Map<string, string>();

  const llmAttributes = (payload: EventPayloads['footprint.stream.llm_end'], meta: EventMeta, call: OpenCall): Attributes => ({
    [ATTR.operation]: metricValue(call.operation),
    [ATTR.provider]: metricValue(providerName(payload.provider)),
    [ATTR.model]: metricValue(payload.model),
    [ATTR.agent]: metricValue(payload.agentId),
    [ATTR.skill]: call.skill,
    [ATTR.route]: metricValue(meta.route),
    // Absent, not '', when unknown: the conventions set these only when known.
    ...(payload.responseModel ? { [ATTR.responseModel]: responseModels.recorded(payload.responseModel, payload.model) } : {}),
    ...(payload.server ? { [ATTR.serverAddress]: metricValue(payload.server.address), [ATTR.serverPort]: payload.server.port } : {}),
  });

  const handlers: EventHandlers = {
    'footprint.agent.turn_start': ({ payload: p }) => {
      if (p.skillGraph) trips.prime(p.agentId);
    },
    'footprint.agent.iteration_start': ({ payload: p, meta }) => {
      skills.set(memberKey(meta), metricValue(p.skill));
    },
    'footprint.stream.llm_start': ({ payload: p }) => {
      calls.set(p.callId, { operation: p.operation, skill: metricValue(p.skill) });
    },
    'footprint.stream.llm_end': ({ payload: p, meta }) => {
      const call = calls.get(p.callId) ?? { operation: 'chat', skill: '' };
      calls.delete(p.callId);
      const attributes = llmAttributes(p, meta, call);
      if (p.streamed) recordStreamed(instruments, p.streamed, attributes);
      if (p.error) {
        instruments.operationDuration.record(p.durationMs / 1000, { ...attributes, [ATTR.errorType]: modelCallErrorType(p.error.type) });
        return;
      }
      instruments.operationDuration.record(p.durationMs / 1000, attributes);
      // Usage only when the provider reported it: an unknown count is no count, never a 0.
      if (!p.usage) return;
      instruments.tokenUsage.record(p.usage.input, { ...attributes, [ATTR.tokenType]: 'input' });
      instruments.tokenUsage.record(p.usage.output, { ...attributes, [ATTR.tokenType]: 'output' });
    },
    'footprint.cost.tick': ({ payload: p, meta }) => {
      instruments.llmCost.add(p.usd, {
        [ATTR.model]: metricValue(p.model),
        [ATTR.provider]: metricValue(providerName(p.provider)),
        [ATTR.agent]: metricValue(p.agentId),
        [ATTR.skill]: metricValue(p.skill),
        [ATTR.route]: metricValue(meta.route),
      });
    },
    'footprint.composition.route_decided': ({ payload: p, meta }) => {
      instruments.routeDecisions.add(1, {
        [ATTR.router]: metricValue(p.compositionId),
        // The route the chosen member runs under: exactly the footprint.route its cost is recorded with.
        [ATTR.routeChosen]: metricValue(routeWithin(meta.route, p.compositionId, chosenBranch(p))),
      });
    },
    'footprint.route.trip': ({ payload: p }) => {
      instruments.routeTrips.add(1, { [ATTR.tripKind]: p.kind, [ATTR.agent]: metricValue(p.agentId) });
    },
    'footprint.skill.rejected': ({ payload: p, meta }) => {
      const skill = metricValue(p.current);
      skills.set(memberKey(meta), skill);
      instruments.skillRejections.add(1, { [ATTR.agent]: metricValue(p.agentId), [ATTR.skill]: skill });
    },
    'footprint.skill.escalated': ({ payload: p, meta }) => {
      instruments.skillEscalations.add(1, { [ATTR.agent]: metricValue(p.agentId), [ATTR.skill]: skills.get(memberKey(meta)) ?? '' });
    },
  };

  trips.primeTree(start.runner);
  const unsubscribe = start.hub.subscribe((event: TypedEvent) => {
    handleEvent(handlers, event);
  });

  return {
    finished(outcome: RunOutcome) {
      unsubscribe();
      const attributes = {
        [ATTR.runnerKind]: start.runner.kind,
        [ATTR.runnerId]: metricValue(start.runner.id),
        [ATTR.runOutcome]: outcomeLabel(outcome),
      };
      instruments.runs.add(1, attributes);
      instruments.runDuration.record((performance.now() - startedAt) / 1000, attributes);
    },
  };
}

/**
 * A streamed call's chunk timings, from llm_end (the hub hands no chunk to an instrument): its time to
 * first chunk, and one time_per_output_chunk record per chunk after the first, as the conventions
 * define it. A call cut off mid-stream still reports what arrived; a call that never streamed, nothing.
 */
function recordStreamed(instruments: RunInstruments, streamed: NonNullable<EventPayloads['footprint.stream.llm_end']['streamed']>, attributes: Attributes): void {
  if (streamed.firstChunkMs !== undefined) instruments.timeToFirstChunk.record(streamed.firstChunkMs / 1000, attributes);
  for (const gapMs of streamed.chunkGapsMs) instruments.timePerOutputChunk.record(gapMs / 1000, attributes);
}

function memberKey(meta: EventMeta): string {
  return stageIds.pathKey(meta.subflowPath);
}

/**
 * The chosen branch as a bounded value: '_not_in_roster' when an LLM router named a member that does
 * not exist (its raw text must never become a series), '_none' when routing chose nothing.
 */
function chosenBranch(p: EventPayloads['footprint.composition.route_decided']): string {
  if (p.inRoster === false) return '_not_in_roster';
  if (p.chosen === '') return '_none';
  return metricValue(p.chosen);
}
