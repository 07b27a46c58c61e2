/**
 * The one check every numeric, signal or id setting goes through (providers, Agent, LLMCall,
 * compositions, run options, the CLI's numeric flags). A setting that cannot work (a deadline of -1
 * or NaN ms, 1e9 retries, a `signal` that is not an AbortSignal, a `conversationId` that is not a short
 * line of text) is refused where it is given, with a ConfigError naming the field and what it takes,
 * instead of failing every call later with a message such as "within NaN ms".
 */
import { ConfigError } from './errors.js';

export interface NumberRule {
  /** Only whole numbers (the default); false also takes fractions such as a temperature of 0.7. */
  integer?: boolean;
  min: number;
  max: number;
}

/** The longest delay a Node timer keeps: setTimeout fires at once (with a warning) past it. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Rules shared by several owners, so one kind of setting takes the same range everywhere. */
export const RULES = {
  /** A deadline in ms: at least 1 ms, at most what a timer can wait. */
  timeoutMs: { min: 1, max: MAX_TIMER_MS },
  /** A delay or backoff in ms (0 allowed). */
  delayMs: { min: 0, max: MAX_TIMER_MS },
  /** Extra attempts after a failed model call. */
  maxRetries: { min: 0, max: 100 },
  /** Tokens a model may produce. */
  maxTokens: { min: 1, max: 100_000_000 },
  /** Sampling temperature (the widest range the wire formats take: OpenAI's 0 to 2). */
  temperature: { integer: false, min: 0, max: 2 },
} as const satisfies Record<string, NumberRule>;

/**
 * `value` when it is a finite number within `rule`, else a ConfigError
 * `"<owner>: <field> must be a whole number from 1 to 100 (got -5)"`.
 */
export function checkNumber(owner: string, field: string, value: unknown, rule: NumberRule): number {
  const problem = numberProblem(field, value, rule);
  if (problem === undefined) return value as number;
  throw new ConfigError(`${owner}: ${problem}`, { field });
}

/**
 * What is wrong with `value` as the number `field` takes ("maxRetries must be a whole number from 0
 * to 100 (got 1000000000)"), or undefined when it fits: the check itself, for callers that report it
 * with an error of their own (the CLI's usage errors).
 */
export function numberProblem(field: string, value: unknown, rule: NumberRule): string | undefined {
  const integer = rule.integer !== false;
  const fits = typeof value === 'number' && Number.isFinite(value) && (!integer || Number.isInteger(value)) && value >= rule.min && value <= rule.max;
  if (fits) return undefined;
  return `${field} must be ${integer ? 'a whole number' : 'a number'} from ${rule.min} to ${rule.max} (got ${shown(value)})`;
}

/** checkNumber for a setting that may be left out (`undefined`: its default applies). */
export function optionalNumber(owner: string, field: string, value: unknown, rule: NumberRule): number | undefined {
  return value === undefined ? undefined : checkNumber(owner, field, value, rule);
}

/** checkNumber with the default for a setting that was left out. */
export function numberSetting(owner: string, field: string, value: unknown, rule: NumberRule, fallback: number): number {
  return value === undefined ? fallback : checkNumber(owner, field, value, rule);
}

/**
 * `value` when it is an AbortSignal (or one from another realm or polyfill with the same surface the
 * runtime uses), else a ConfigError. `undefined` passes through.
 */
export function optionalSignal(owner: string, field: string, value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (value instanceof AbortSignal || looksLikeSignal(value)) return value as AbortSignal;
  throw new ConfigError(`${owner}: ${field} must be an AbortSignal (got ${shown(value)})`, { field });
}

/**
 * The longest id a run takes (a conversationId), 256 characters: far above the opaque keys apps use for a
 * conversation (a UUID is 36, a ULID 26, provider conversation ids about 50), and short enough that
 * a message put there by mistake is refused rather than copied onto every span and event of the run
 * (it becomes gen_ai.conversation.id).
 */
export const MAX_ID_CHARS = 256;

/** Control characters (C0, DEL, C1): they would corrupt the terminals, logs and backends an id is shown in. */
const CONTROL = /\p{Cc}/u;

/**
 * `value` when it is a non-empty string of at most MAX_ID_CHARS characters without control
 * characters, else a ConfigError naming `field`. `undefined` passes through.
 */
export function optionalId(owner: string, field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '' && value.length <= MAX_ID_CHARS && !CONTROL.test(value)) return value;
  const got = typeof value === 'string' && value.length > MAX_ID_CHARS ? `${value.length} characters` : shown(value);
  throw new ConfigError(`${owner}: ${field} must be a non-empty string of at most ${MAX_ID_CHARS} characters without control characters (got ${got})`, { field });
}

function looksLikeSignal(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const signal = value as Partial<Record<'aborted' | 'addEventListener' | 'removeEventListener' | 'throwIfAborted', unknown>>;
  return (
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function' &&
    typeof signal.throwIfAborted === 'function'
  );
}

/** A short, safe rendering of a rejected value for the message (never the whole of a huge string). */
function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') {
    // JSON escapes C0 controls; DEL and C1 are escaped too, so the message never carries one.
    const quoted = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    return quoted.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return `a ${typeof value}`;
}
