/**
 * Typed run failures. A stage that throws is tagged with the member and stage it belongs to, so the
 * run's failure names where it happened even when the error comes from deep inside a composition.
 */
import { markOwnText, type MemberRef } from '../../events/index.js';

const ORIGIN = Symbol.for('footprint-otel.failure-origin');

export interface FailureOrigin {
  member: MemberRef;
  stage: string;
}

export function tagFailure(error: unknown, origin: FailureOrigin): void {
  if (error !== null && typeof error === 'object' && !(ORIGIN in error)) {
    try {
      Object.defineProperty(error, ORIGIN, { value: origin, enumerable: false });
    } catch {
      // a frozen error keeps no origin; the run still fails with it
    }
  }
}

export function failureOrigin(error: unknown): FailureOrigin | undefined {
  return error !== null && typeof error === 'object' ? (error as Record<symbol, FailureOrigin>)[ORIGIN] : undefined;
}

/** Thrown by run()/resume() when a member of the run failed. `cause` is the original error. */
export class RunFailedError extends Error {
  override readonly name = 'RunFailedError';
  readonly status = 'failed' as const;
  constructor(
    readonly runId: string,
    readonly member: MemberRef,
    readonly stage: string,
    cause: unknown,
  ) {
    super(`run ${runId} failed in ${member.kind} "${member.id}" at stage "${stage}": ${describeError(cause)}`, { cause });
  }
}

/** Thrown when a checkpoint does not belong to the runner asked to resume it, or is malformed. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
}

/** Thrown at build time when a runner is configured in a way that cannot work. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return 'unprintable error';
  }
}

/** The error's declared errorType, else its class name (errorClass). */
export function errorType(error: unknown): string {
  if (error && typeof error === 'object' && 'errorType' in error && typeof error.errorType === 'string') {
    return error.errorType;
  }
  return errorClass(error);
}

/** The error's class name ('TypeError'), or the type of a thrown non-Error ('string'). */
export function errorClass(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
