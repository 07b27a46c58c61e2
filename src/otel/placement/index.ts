/**
 * placement/ — where a run's spans go: the run's span set (RunSpans: explicit times, nothing left
 * unended, context activation), the three layouts that place stage and member spans (executor,
 * runner, semantic), chosen by chooseLayout.ts, and OpenList, what the bridge keeps in flight by key.
 * Depends on events/ (stage ids) and encoding/ only; knows nothing of GenAI content or of how a run
 * is wired.
 */
export { activator, type Activate } from './activation.js';
export { executorLayout, runnerLayout, type TraceDetail } from './chooseLayout.js';
export { emitterSpan, type HookGuard, type LayoutEnd, type MemberIdentity, type MemberLayout, type RecorderHooks, type SpanLayout } from './layout.js';
export { OpenList } from './openList.js';
export { RunSpans, type OpenSpan, type SpanStart } from './runSpans.js';
