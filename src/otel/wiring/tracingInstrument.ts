/**
 * tracingInstrument(): the bridge as a run instrument, so every runner run (and resume) is a trace.
 * At each start it checks that an OTel SDK is there to receive spans; if not, it stays out of the run
 * entirely (no recorder, no subscription, no wrapper: zero cost). Otherwise it opens the run span on
 * the caller's active context (or, for a resume, as a child of the paused run span, linked to it),
 * hears the stages its layout needs (none for detail 'semantic': from the run's hub when its stages
 * report themselves, else through a footprintjs recorder), subscribes to the run's typed events and
 * other emits, and contains the executor call.
 *
 *   registerInstrument(tracingInstrument({ detail: 'semantic' }));
 */
import { context, trace, type Attributes, type Link } from '@opentelemetry/api';
import { registeredInstruments, subscribeStages, type RunInstrument, type RunSession, type RunStart } from '../../runtime/index.js';
import { knownProducers, runnerIdentity } from '../genai/index.js';
import type { MemberIdentity } from '../placement/index.js';
import { resolve, settle, type Settings, type TracingOptions } from './options.js';
import { guard } from './safety.js';
import {
  ATTR_FOOTPRINT_LINK_TYPE,
  ATTR_FOOTPRINT_RESUMED,
  ATTR_FOOTPRINT_RUNNER_ID,
  ATTR_FOOTPRINT_RUNNER_KIND,
  ATTR_GEN_AI_CONVERSATION_ID,
  parseTraceparent,
} from '../encoding/index.js';
import { CARRY_MEMBERS, CARRY_TRACEPARENT, CARRY_TRACESTATE, readMembers } from './carry.js';
import { memberDirectory } from './memberDirectory.js';
import { asStageListener } from './traceRecorder.js';
import { TracedRun } from './tracedRun.js';

export const TRACING_INSTRUMENT_ID = 'footprint-otel.tracing';

/** The tracing instrument, with the settings every run it traces uses (traceExecutor reads them too). */
export interface TracingInstrument extends RunInstrument {
  readonly settings: Settings;
}

/** Settles its options against the environment now, once; every run it traces uses these settings. */
export function tracingInstrument(options: TracingOptions = {}): TracingInstrument {
  const settings = settle(options);
  return {
    id: TRACING_INSTRUMENT_ID,
    settings,
    start: (run) => guard('tracing start', () => startTracing(run, settings)),
  };
}

/** The settings of the registered tracing instrument (startTelemetry's, or the app's), if one is. */
export function registeredTracingSettings(): Settings | undefined {
  for (const instrument of registeredInstruments()) {
    if (instrument.id === TRACING_INSTRUMENT_ID && 'settings' in instrument) return (instrument as TracingInstrument).settings;
  }
  return undefined;
}

function startTracing(run: RunStart, settings: Settings): RunSession | undefined {
  const resolved = resolve(settings);
  if (!resolved) return undefined;
  const { kind, id, name, profile } = run.tree.root;
  const identity = runnerIdentity(kind, id, name, resolved.semconv, { conversationId: run.conversationId, ...profile });
  // The identity's attributes spread last: on Node 20's V8 a property written after a spread in a literal is a slow runtime call.
  const attributes: Attributes = { [ATTR_FOOTPRINT_RUNNER_KIND]: kind, [ATTR_FOOTPRINT_RUNNER_ID]: id, ...identity.attributes };
  if (run.conversationId !== undefined) attributes[ATTR_GEN_AI_CONVERSATION_ID] = run.conversationId;

  const active = context.active();
  let parent = active;
  const links: Link[] = [];
  let carried: Record<string, MemberIdentity> | undefined;
  if (run.resumed) {
    attributes[ATTR_FOOTPRINT_RESUMED] = true;
    const carry = run.resumed.carry;
    const paused = parseTraceparent(carry[CARRY_TRACEPARENT], carry[CARRY_TRACESTATE]);
    if (paused) {
      parent = trace.setSpanContext(active, paused);
      links.push({ context: paused, attributes: { [ATTR_FOOTPRINT_LINK_TYPE]: 'paused_run' } });
      const caller = trace.getSpanContext(active);
      if (caller) links.push({ context: caller, attributes: { [ATTR_FOOTPRINT_LINK_TYPE]: 'resumed_by' } });
    }
    carried = readMembers(carry[CARRY_MEMBERS]);
  }

  const traced = new TracedRun({
    source: 'runner',
    resolved,
    name: identity.name,
    attributes,
    parent,
    links,
    runId: run.runId,
    conversationId: run.conversationId,
    carried,
    expected: memberDirectory(run.tree, resolved.semconv, run.conversationId),
    // Producer spans outside this run segment: the run before its pause, the stored conversation's runs.
    known: run.resumed && knownProducers([{ carry: run.resumed.carry }]),
    restored: run.restored,
  });
  // Stage hooks come from the run's hub when its stages report themselves; else from a footprintjs recorder (traceRecorder.ts).
  const stages = traced.recorder && asStageListener(traced.recorder);
  const unsubscribeStages = stages && subscribeStages(run.events, stages);
  if (traced.recorder && !unsubscribeStages) run.executor.attachCombinedRecorder(traced.recorder, { delivery: 'inline' });
  const unsubscribeEvents = run.events.subscribe(traced.onEvent);
  const unsubscribeOthers = run.events.subscribeOthers(traced.onOtherEmit);
  return {
    around: (call) => traced.within(call),
    paused: () => guard('tracing pause', () => traced.carry()),
    appending: () => guard('tracing append', () => traced.lineageCarry()),
    finished: (outcome) => {
      guard('tracing finish', () => {
        unsubscribeEvents();
        unsubscribeOthers();
        unsubscribeStages?.();
        traced.finish(outcome);
      });
    },
  };
}
