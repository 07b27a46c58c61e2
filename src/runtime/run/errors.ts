/**
 * Typed run failures. A stage that throws is tagged with the member and stage it belongs to, so the
 * run's failure names where it happened even when the error comes from deep inside a composition.
 */
import { markOwnText, type MemberRef, type TokenUsage } from '../../events/index.js';
import { FIXED_ERROR_TYPES } from './errorTypes.js';
import { safeStringify } from './safeJson.js';

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
  /** What the run's model calls used before it failed, counted as RunResult.usage is (failed calls included). */
  readonly usage: TokenUsage;
  /** What they cost, as RunResult.cost is (`priced` false when a call had no price). */
  readonly cost: { readonly usd: number; readonly priced: boolean };
  constructor(
    readonly runId: string,
    readonly member: MemberRef,
    readonly stage: string,
    cause: unknown,
    spent: { usage: TokenUsage; cost: { usd: number; priced: boolean } },
  ) {
    super(`run ${runId} failed in ${member.kind} "${member.id}" at stage "${stage}": ${describeError(cause)}`, { cause });
    this.usage = spent.usage;
    this.cost = spent.cost;
  }
}

/** Why a checkpoint was refused (docs/checkpoints.md says what each protects). */
export type CheckpointRefusal =
  /** Not a checkpoint of this format, or missing a part. */
  | 'malformed'
  /** Made by another runner (its kind or id). */
  | 'other_runner'
  /** Its id, run id or runner was changed, or the runner's chart is not the one that paused. */
  | 'altered'
  /** It was resumed before (a checkpoint resumes at most once). */
  | 'already_resumed'
  /** The checkpoint store could not say whether it was resumed before. */
  | 'store_failed'
  /** The pause sits where footprintjs cannot continue the run from. */
  | 'not_resumable';

/** Thrown by resume() when a checkpoint cannot be resumed; `reason` says why. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
  readonly reason: CheckpointRefusal;
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
  constructor(message: string, reason: CheckpointRefusal = 'malformed', options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * Thrown when a setting cannot work: at build time for a runner's or provider's options, at call
 * time for run options. `field` names the setting when the error is about one (run/settings.ts).
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly field?: string;
  /** Its messages are footprint-otel's wording, exported without content capture (events/contentCapture.ts). */
  static {
    markOwnText(this);
  }
  constructor(message: string, options: { field?: string } = {}) {
    super(message);
    this.field = options.field;
  }
}

/**
 * A readable, safe description of anything thrown: `Name: message` for an Error; the text of a thrown
 * string; for anything else what it is and a bounded JSON rendering, never "[object Object]". It
 * never throws, whatever getters or proxies the value hides.
 */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) {
      const name = typeof error.name === 'string' && error.name !== '' ? error.name : 'Error';
      const message = typeof error.message === 'string' ? error.message : '';
      return message === '' ? name : `${name}: ${message}`;
    }
    if (typeof error === 'string') return error === '' ? 'an empty string was thrown (not an Error)' : error;
    if (error === null || error === undefined) return `${String(error)} was thrown (not an Error)`;
    if (typeof error === 'function') return 'a function was thrown (not an Error)';
    if (typeof error !== 'object') return `a ${typeof error} was thrown (not an Error): ${String(error)}`;
    const kind = Array.isArray(error) ? 'an array' : 'an object';
    const json = safeStringify(error);
    const shown = json.length > MAX_RENDERED_CHARS ? `${json.slice(0, MAX_RENDERED_CHARS)}…` : json;
    return shown === '' ? `${kind} was thrown (not an Error)` : `${kind} was thrown (not an Error): ${shown}`;
  } catch {
    return 'an unreadable value was thrown (not an Error)';
  }
}

/** How much of a thrown non-Error's JSON a description keeps. */
const MAX_RENDERED_CHARS = 1_000;

/**
 * The low-cardinality `error.type` of anything thrown: the `errorType` it declares (runtime errors
 * do), else its class name (errorClass); `_OTHER` (the semantic conventions' fallback) for a value
 * that is not an Error, and for a declared type or class name that is not a short identifier.
 */
export function errorType(error: unknown): string {
  try {
    const declared = error !== null && typeof error === 'object' ? (error as { errorType?: unknown }).errorType : undefined;
    if (isTypeName(declared)) return declared;
  } catch {
    return FIXED_ERROR_TYPES.other;
  }
  return errorClass(error);
}

/** The error's class name ('TypeError'), or `_OTHER` for a thrown non-Error or an unusable name. */
export function errorClass(error: unknown): string {
  try {
    return error instanceof Error && isTypeName(error.name) ? error.name : FIXED_ERROR_TYPES.other;
  } catch {
    return FIXED_ERROR_TYPES.other;
  }
}

/** A value that may label a metric series or a span's error.type: a short identifier ('429', 'TypeError', 'invalid_args'). */
function isTypeName(value: unknown): value is string {
  return typeof value === 'string' && /^[\w.:-]{1,64}$/.test(value);
}
