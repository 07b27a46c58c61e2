/**
 * genai/ — what goes on the spans: the typed-event table (eventSpans.ts: one rule per catalog event),
 * the chat and execute_tool spans (callSpans.ts), the names and identifying attributes of agent and
 * workflow spans (memberIdentity.ts), and the run span's roll-ups (runRollups.ts). Depends on
 * events/, encoding/ and placement/ (it asks a layout where each span goes); never on wiring/.
 */
export { EventSpans, type EventSpansInit } from './eventSpans.js';
export { agentProfileIdentity, compositionIdentity, routerDecisionIdentity, runnerIdentity } from './memberIdentity.js';
export { RunRollups } from './runRollups.js';
