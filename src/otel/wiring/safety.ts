/**
 * The bridge never throws into the app. Every hook, listener and session method runs through
 * guard(): a failure is counted, reported once per process through OTel's diag logger, and dropped,
 * so a tracing bug can cost a span but never a run.
 */
import { diag } from '@opentelemetry/api';

let failures = 0;
let reported = false;

/** How many bridge hooks have failed in this process (for tests and health checks). */
export function tracingFailures(): number {
  return failures;
}

/** Records a failure without rethrowing it. */
function reportFailure(where: string, error: unknown): void {
  failures++;
  if (reported) return;
  reported = true;
  try {
    diag.error(`footprint-otel: tracing hook ${where} failed and was ignored (further failures are only counted)`, error);
  } catch {
    // a broken diag logger must not break the run either
  }
}

/** Runs `call`; on failure reports it and returns undefined. */
export function guard<T>(where: string, call: () => T): T | undefined {
  try {
    return call();
  } catch (error) {
    reportFailure(where, error);
    return undefined;
  }
}

/** Wraps a one-argument hook so it can never throw. */
export function guarded<E>(where: string, hook: (event: E) => void): (event: E) => void {
  return (event: E) => {
    try {
      hook(event);
    } catch (error) {
      reportFailure(where, error);
    }
  };
}
