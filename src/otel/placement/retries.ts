/**
 * footprintjs re-fires onStageStart with the same runtime stage id for each retry attempt. Both stage
 * layouts keep one span per runtime stage id and mark the attempt on it here, so retries never leak
 * an unended span.
 */
import { EVENT_FOOTPRINT_STAGE_ATTEMPT, ATTR_FOOTPRINT_STAGE_ATTEMPTS } from '../encoding/index.js';
import type { OpenSpan, RunSpans } from './runSpans.js';

function markAttempt(stage: { opened: OpenSpan; attempts: number }, run: RunSpans, time: number): void {
  stage.attempts++;
  stage.opened.span.addEvent(EVENT_FOOTPRINT_STAGE_ATTEMPT, { attempt: stage.attempts }, time);
  stage.opened.span.setAttribute(ATTR_FOOTPRINT_STAGE_ATTEMPTS, stage.attempts);
  run.activate(stage.opened);
}

/** onStageStart for a runtime stage id that is still open is a retry: marks it, and says so. */
export function isRetry(stages: { get(runtimeStageId: string): { opened: OpenSpan; attempts: number } | undefined }, runtimeStageId: string, run: RunSpans, time: number): boolean {
  const retried = stages.get(runtimeStageId);
  if (retried) markAttempt(retried, run, time);
  return retried !== undefined;
}
