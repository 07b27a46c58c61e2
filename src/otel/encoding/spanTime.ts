/**
 * A time of the project clock (events/clock.ts: epoch milliseconds) as the OTel SDK stores it, an
 * HrTime [seconds, nanoseconds]. Given a number, the SDK reads the performance clock first, on every
 * span start, span end and span event, to tell an epoch time from a performance-relative one; a
 * project-clock time is always an epoch time, so the bridge converts it here with the SDK's own
 * arithmetic (core's millisToHrTime: the same HrTime to the nanosecond) and the SDK takes it as it is.
 * A number too small to be an epoch time (a test's synthetic clock) is left for the SDK to read.
 */
import type { HrTime, TimeInput } from '@opentelemetry/api';

/** 2001-09-09 in epoch milliseconds: the performance clock (time since the process started) never gets there. */
const EPOCH_FLOOR = 1e12;

export function spanTime(epochMillis: number): TimeInput {
  if (epochMillis < EPOCH_FLOOR) return epochMillis;
  const time: HrTime = [Math.trunc(epochMillis / 1000), Math.round((epochMillis % 1000) * 1e6)];
  return time;
}
