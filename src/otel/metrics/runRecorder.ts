/**
 * One run's metrics: listens to the run's typed events (the same ones the trace bridge turns into
 * spans, so spans and metrics never disagree) and records model-call tokens and durations, a streamed
 * call's chunk timings (from its end, never per chunk event), cost, fallbacks, routing decisions, trips,
 * escalations and rejections as they happen, each agent invocation, tool call and composition when
 * it ends, then the run itself when it ends. A model call is recorded from its one record, llm_end
 * (tokens, duration, chunk timings, cost, all with the same attributes). State is per run and holds
 * only what in-flight events need (each agent's current skill, each open agent turn's start and call
 * counts, each open composition's start); a paused run carries each agent's current skill to the resumed
 * one, whose first escalation may come before any event names the skill again. Values from outside (a server's response model, a failed
 * call's error type) are bounded by outsideValues.ts.
 */
import type { Attributes } from '@opentelemetry/api';
import { handleEvent, now, routeWithin, stageIds, type EventHandlers, type EventMeta, type EventPayloads, type ModelCallRecord, type TokenUsage, type TypedEvent } from '../../events/index.js';
import { FIXED_ERROR_TYPES, outcomeLabel, type RunOutcome, type RunSession, type RunStart } from '../../runtime/index.js';
import { FAILED_TOOL_STATUSES, failureOf, providerName, UNRUN_TOOL_STATUSES } from '../encoding/index.js';
import { ATTR, metricValue } from './metricAttributes.js';
import type { RunInstruments } from './instrumentSet.js';
import type { TripSeries } from './tripSeries.js';
import { modelCallErrorType, OTHER_VALUE, type ResponseModels } from './outsideValues.js';

/** One agent invocation (a turn) in flight: who, since when, and the calls it made itself so far. */
interface OpenInvocation {
  agentId: string;
  name: string;
  startedAt: number;
  inferenceCalls: number;
  toolCalls: number;
  /** Whether it runs inside another open invocation or composition of the run (gen_ai.invocation.is_nested). */
  nested: boolean;
}

/** One composition run in flight. */
interface OpenWorkflow {
  id: string;
  startedAt: number;
  nested: boolean;
}

/** What a paused run carries for the resumed one: each agent's current skill (an escalation right after the resume is counted under it). */
export const CARRY_SKILLS = 'footprint-otel.metrics.skills';

export function recordRun(start: RunStart, instruments: RunInstruments, trips: TripSeries, responseModels: ResponseModels): RunSession {
  const startedAt = performance.now();
  /** Current skill per mounted agent (keyed by its subflow mount path). */
  const skills = carriedSkills(start.resumed?.carry[CARRY_SKILLS]);
  /** Open agent turns and compositions, keyed like skills: a member's events share its mount path. */
  const invocations = new Map<string, OpenInvocation>();
  const workflows = new Map<string, OpenWorkflow>();

  const agentAttributes = (invocation: OpenInvocation): Attributes => ({
    [ATTR.agentName]: metricValue(invocation.name),
    [ATTR.agent]: metricValue(invocation.agentId),
  });
  /**
   * Whether an invocation starting at `key` runs inside one still open: an agent turn or composition
   * at an enclosing subflow path (a member's key extends its composition's; the top level is '').
   */
  const nestedAt = (key: string): boolean => {
    for (const open of [invocations.keys(), workflows.keys()]) {
      for (const outer of open) if (outer !== key && (outer === '' || key.startsWith(`${outer}/`))) return true;
    }
    return false;
  };
  /** One invocation's duration and call counts (the conventions record all three at its end). */
  const recordInvocation = (invocation: OpenInvocation, endedAt: number, errorType?: string): void => {
    const attributes = agentAttributes(invocation);
    const failed = errorType === undefined ? {} : { [ATTR.errorType]: metricValue(errorType) };
    const seconds = (endedAt - invocation.startedAt) / 1000;
    instruments.invocationDuration?.record(seconds, { [ATTR.operation]: 'invoke_agent', [ATTR.isNested]: invocation.nested, ...attributes, ...failed });
    instruments.invokeAgentDuration?.record(seconds, { ...attributes, ...failed });
    instruments.invokeAgentInferenceCalls.record(invocation.inferenceCalls, attributes);
    instruments.invokeAgentToolCalls.record(invocation.toolCalls, attributes);
  };
  const recordWorkflow = (workflow: OpenWorkflow, endedAt: number, errorType?: string): void => {
    const failed = errorType === undefined ? {} : { [ATTR.errorType]: metricValue(errorType) };
    const seconds = (endedAt - workflow.startedAt) / 1000;
    const name = { [ATTR.workflowName]: metricValue(workflow.id) };
    instruments.invocationDuration?.record(seconds, { [ATTR.operation]: 'invoke_workflow', [ATTR.isNested]: workflow.nested, ...name, ...failed });
    instruments.workflowDuration?.record(seconds, { ...name, ...failed });
  };

  /** Ends, with the error, every open invocation and composition whose key is `within`. */
  const endOpen = (endedAt: number, errorType: string, within: (key: string) => boolean): void => {
    for (const [key, invocation] of invocations) {
      if (!within(key)) continue;
      invocations.delete(key);
      recordInvocation(invocation, endedAt, errorType);
    }
    for (const [key, workflow] of workflows) {
      if (!within(key)) continue;
      workflows.delete(key);
      recordWorkflow(workflow, endedAt, errorType);
    }
  };

  // Attribute objects are built per model call and tool call: where they spread, the spread comes
  // last (on Node 20's V8 a property written after a spread in a literal is a slow runtime call).
  const llmAttributes = (payload: ModelCallRecord, meta: EventMeta): Attributes => ({
    [ATTR.operation]: metricValue(payload.operation),
    [ATTR.provider]: metricValue(providerName(payload.provider)),
    [ATTR.model]: metricValue(payload.model),
    [ATTR.agent]: metricValue(payload.agentId),
    [ATTR.skill]: metricValue(payload.skill),
    [ATTR.route]: metricValue(meta.route),
    // Absent, not '', when unknown: the conventions set these only when known.
    ...(payload.responseModel ? { [ATTR.responseModel]: responseModels.recorded(payload.responseModel, payload.model) } : {}),
    ...(payload.server ? { [ATTR.serverAddress]: metricValue(payload.server.address), [ATTR.serverPort]: payload.server.port } : {}),
  });

  const handlers: EventHandlers = {
    'footprint.agent.turn_start': ({ payload: p, meta }) => {
      if (p.skillGraph) trips.prime(p.agentId, meta.route);
      const key = memberKey(meta);
      invocations.set(key, { agentId: p.agentId, name: p.name, startedAt: meta.timestamp, inferenceCalls: 0, toolCalls: 0, nested: nestedAt(key) });
    },
    'footprint.agent.turn_end': ({ meta }) => {
      const key = memberKey(meta);
      const invocation = invocations.get(key);
      // A turn resumed after a pause started in another session: its counts are not known here.
      if (!invocation) return;
      invocations.delete(key);
      recordInvocation(invocation, meta.timestamp);
    },
    'footprint.composition.enter': ({ payload: p, meta }) => {
      const key = memberKey(meta);
      workflows.set(key, { id: p.compositionId, startedAt: meta.timestamp, nested: nestedAt(key) });
    },
    'footprint.composition.exit': ({ meta }) => {
      const key = memberKey(meta);
      const workflow = workflows.get(key);
      if (!workflow) return;
      workflows.delete(key);
      recordWorkflow(workflow, meta.timestamp);
    },
    'footprint.composition.branch_end': ({ payload: p, meta }) => {
      if (p.status !== 'error') return;
      // A Parallel branch that failed ends what was open inside it, with its error (the run may still answer).
      const branch = stageIds.pathKey([...meta.subflowPath, p.branch]);
      endOpen(meta.timestamp, p.error?.type ?? OTHER_VALUE, (key) => key === branch || key.startsWith(`${branch}/`));
    },
    'footprint.call.tool_end': ({ payload: p, meta }) => {
      const invocation = invocations.get(memberKey(meta));
      if (invocation) invocation.toolCalls++;
      instruments.executeToolDuration.record(p.durationMs / 1000, {
        // A name no tool of the agent has is the model's invention: never a series of its own.
        [ATTR.toolName]: p.status === 'unknown_tool' ? OTHER_VALUE : metricValue(p.toolName),
        // The agent runs every tool itself (a function the model asked for), as on the execute_tool span.
        [ATTR.toolType]: 'function',
        [ATTR.agent]: metricValue(p.agentId),
        ...(invocation ? { [ATTR.agentName]: metricValue(invocation.name) } : {}),
        // The execute_tool span's failures, and the calls that never ran to a result: error.type on the duration.
        ...(FAILED_TOOL_STATUSES.has(p.status) || UNRUN_TOOL_STATUSES.has(p.status) ? { [ATTR.errorType]: metricValue(p.error?.type ?? OTHER_VALUE) } : {}),
      });
    },
    'footprint.agent.iteration_start': ({ payload: p, meta }) => {
      skills.set(memberKey(meta), metricValue(p.skill));
    },
    'footprint.call.llm_start': ({ payload: p }) => {
      if (!p.fallbackFrom) return;
      // Model ids come from the app's configuration (its brains and fallbacks): a bounded set.
      instruments.llmFallbacks.add(1, {
        [ATTR.fallbackFromModel]: metricValue(p.fallbackFrom.model),
        [ATTR.fallbackToModel]: metricValue(p.model),
        [ATTR.agent]: metricValue(p.agentId),
      });
    },
    'footprint.call.llm_end': ({ payload: p, meta }) => {
      const invocation = invocations.get(memberKey(meta));
      if (invocation) invocation.inferenceCalls++;
      const attributes = llmAttributes(p, meta);
      if (p.streamed) recordStreamed(instruments, p.streamed, attributes);
      if (p.error) {
        const failed = { [ATTR.errorType]: modelCallErrorType(p.error.type), ...attributes };
        for (const duration of instruments.modelCallDurations) duration.record(p.durationMs / 1000, failed);
        return;
      }
      for (const duration of instruments.modelCallDurations) duration.record(p.durationMs / 1000, attributes);
      // An answered call's cost (0 when not priced): a failed one has none, as its chat span has none.
      instruments.llmCost.add(p.cost.usd, {
        [ATTR.model]: attributes[ATTR.model],
        [ATTR.provider]: attributes[ATTR.provider],
        [ATTR.agent]: attributes[ATTR.agent],
        [ATTR.skill]: attributes[ATTR.skill],
        [ATTR.route]: attributes[ATTR.route],
      });
      recordUsage(instruments, p.usage, attributes);
    },
    'footprint.composition.route_decided': ({ payload: p, meta }) => {
      instruments.routeDecisions.add(1, {
        [ATTR.router]: metricValue(p.compositionId),
        // The route the chosen member runs under: exactly the footprint.route its cost is recorded with.
        [ATTR.routeChosen]: metricValue(routeWithin(meta.route, p.compositionId, chosenBranch(p))),
      });
    },
    'footprint.loop_guard.trip': ({ payload: p, meta }) => {
      const trip = { [ATTR.tripKind]: p.kind, [ATTR.agent]: metricValue(p.agentId), [ATTR.route]: metricValue(meta.route) };
      for (const counter of instruments.trips) counter.add(1, trip);
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

  trips.primeTree(start.tree);
  const unsubscribe = start.events.subscribe((event: TypedEvent) => {
    handleEvent(handlers, event);
  });

  return {
    paused: () => (skills.size > 0 ? { [CARRY_SKILLS]: Object.fromEntries(skills) } : undefined),
    finished(outcome: RunOutcome) {
      unsubscribe();
      // A failed or cancelled run ends every invocation and composition still open with its error;
      // a paused one leaves them open (they go on in the resumed run).
      if (outcome.status === 'failed' || outcome.status === 'cancelled') {
        endOpen(now(), outcome.status === 'cancelled' ? FIXED_ERROR_TYPES.cancelled : failureOf(outcome.error).type, () => true);
      }
      const attributes = {
        [ATTR.runnerKind]: start.tree.root.kind,
        [ATTR.runnerId]: metricValue(start.tree.root.id),
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
function recordStreamed(instruments: RunInstruments, streamed: NonNullable<EventPayloads['footprint.call.llm_end']['streamed']>, attributes: Attributes): void {
  const firstChunkMs = streamed.firstChunkMs;
  if (firstChunkMs !== undefined) for (const histogram of instruments.timeToFirstChunk) histogram.record(firstChunkMs / 1000, attributes);
  for (const histogram of instruments.timePerOutputChunk) {
    for (const gapMs of streamed.chunkGapsMs) histogram.record(gapMs / 1000, attributes);
  }
}

/** The skills a paused run carried, keeping only string entries (a checkpoint is untrusted JSON). */
function carriedSkills(value: unknown): Map<string, string> {
  const skills = new Map<string, string>();
  if (typeof value !== 'object' || value === null) return skills;
  for (const [key, skill] of Object.entries(value)) if (typeof skill === 'string') skills.set(key, metricValue(skill));
  return skills;
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

/** The modality of a gen_ai.client.inference.usage.* add for a call that reported no usage. */
const UNKNOWN_MODALITY = 'unknown';
/** The providers report no split by modality, so a reported count is all text. */
const TEXT_MODALITY = 'text';

/**
 * One model call's tokens. v1.41's histogram records only a usage the provider reported (an unknown
 * count is no count, never a 0). The current model's counters take every answered call: one whose
 * answer carried no usage adds 0 input and 0 output tokens of modality `unknown` (token-metrics.yaml's
 * note); the cache and reasoning counters add only what the provider reported. A failed call adds
 * nothing (the note asks for a 0 there too: docs/departures.md says why not).
 */
function recordUsage(instruments: RunInstruments, usage: TokenUsage | undefined, attributes: Attributes): void {
  if (usage && instruments.tokenUsage) {
    instruments.tokenUsage.record(usage.input, { [ATTR.tokenType]: 'input', ...attributes });
    instruments.tokenUsage.record(usage.output, { [ATTR.tokenType]: 'output', ...attributes });
  }
  const counters = instruments.inferenceUsage;
  if (!counters) return;
  if (!usage) {
    const unknown = { [ATTR.tokenModality]: UNKNOWN_MODALITY, ...attributes };
    counters.input.add(0, unknown);
    counters.output.add(0, unknown);
    return;
  }
  const text = { [ATTR.tokenModality]: TEXT_MODALITY, ...attributes };
  counters.input.add(usage.input, text);
  counters.output.add(usage.output, text);
  if (usage.cacheRead !== undefined) counters.cacheRead.add(usage.cacheRead, text);
  if (usage.cacheWrite !== undefined) counters.cacheWrite.add(usage.cacheWrite, text);
  if (usage.reasoning !== undefined) counters.reasoning.add(usage.reasoning, text);
}
