/**
 * connectMcp's timeouts and protocol revision, checked where they are given (the runtime's settings check, run/settings.ts):
 * a timeout that cannot work (NaN, -5, 0) is a ConfigError naming the option, not a call that fails at
 * once as `timeout` with a TimeoutOverflowWarning. Infinity, the natural "no limit", is taken as the
 * longest wait a timer keeps (about 24.8 days).
 */
import { ConfigError, numberProblem, RULES } from '../runtime/index.js';
import { STATELESS_REVISION } from './attributes.js';

/** The revision connectMcp pins, or undefined for the 2025 revisions (negotiated with initialize); anything else is a ConfigError. */
export function revisionOption(value: unknown): typeof STATELESS_REVISION | undefined {
  if (value === undefined || value === STATELESS_REVISION) return value;
  throw new ConfigError(`connectMcp: revision must be '${STATELESS_REVISION}' or left out (got ${JSON.stringify(value)})`, { field: 'revision' });
}

export function timeoutOption(field: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity) return RULES.timeoutMs.max;
  if (numberProblem(field, value, RULES.timeoutMs) === undefined) return value as number;
  const got = typeof value === 'number' ? String(value) : typeof value;
  throw new ConfigError(
    `connectMcp: ${field} must be a whole number from ${RULES.timeoutMs.min} to ${RULES.timeoutMs.max}, or Infinity for no limit (got ${got})`,
    { field },
  );
}
