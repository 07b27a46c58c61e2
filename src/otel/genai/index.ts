/**
 * genai/ — what goes on the spans: the typed-event table (eventSpans.ts: one rule per catalog event),
 * the chat and execute_tool spans (callSpans.ts), the names and identifying attributes of agent and
 * workflow spans (memberIdentity.ts), the run span's roll-ups (runRollups.ts), and the run's lineage:
 * the span links from each call to the spans that produced its input (lineage.ts, carried past a pause or
 * into a stored conversation by lineageCarry.ts). Depends on
 * events/, encoding/ and placement/ (it asks a layout where each span goes); never on wiring/.
 */
export { EventSpans, type EventSpansInit } from './eventSpans.js';
export { agentProfileIdentity, compositionIdentity, routerDecisionIdentity, runnerIdentity } from './memberIdentity.js';
export { RunRollups } from './runRollups.js';
export { RunLineage } from './lineage.js';
export { knownProducers, lineageCarry, type CarriedBy, type KnownProducers, type ProducerSpan, type Reply } from './lineageCarry.js';
