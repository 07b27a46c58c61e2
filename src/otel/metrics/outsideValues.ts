/**
 * Metric attribute values that come from outside the app's code must not grow the series with
 * traffic (docs/architecture.md, Metrics: every attribute value is bounded). Two of them reach the
 * metrics: the response model a model server names, and the error.type of a failed model call (an
 * HTTP status the server chose, or what a custom provider threw). Each is bounded by a known set, and
 * a value outside it is recorded as `_OTHER`, as the semantic conventions do for error.type:
 *
 * - gen_ai.response.model: the call's request model (from code) always; any other name only if it is
 *   one of the first MAX_OUTSIDE_VALUES this meter has seen (dated variants such as
 *   `gpt-4o-2024-08-06` keep their name, a server inventing names fills the slots once).
 * - error.type of a model call: a registered HTTP status code, or a ProviderError kind.
 *
 * Tool names, skill names a model asks for and router choices never become metric attributes as
 * asked: tools are not in the metrics, a rejected skill is recorded under the current skill (from the
 * skill graph), and an LLM router's unknown choice is `_not_in_roster` (runRecorder.ts).
 */
import { STATUS_CODES } from 'node:http';
import { FIXED_ERROR_TYPES, type ProviderErrorKind } from '../../runtime/index.js';
import { metricValue } from './metricAttributes.js';

/** What an outside value outside its known set is recorded as: the conventions' fallback, as the runtime reports it. */
export const OTHER_VALUE = FIXED_ERROR_TYPES.other;

/** Distinct outside names (other than the request model) a meter keeps as they are. */
export const MAX_OUTSIDE_VALUES = 16;

/** Typed as a record so a new ProviderError kind fails the typecheck here. */
const PROVIDER_KINDS = Object.keys({
  http: true,
  timeout: true,
  network: true,
  malformed_response: true,
  aborted: true,
  script: true,
  response_too_large: true,
  stream_error: true,
} satisfies Record<ProviderErrorKind, true>);

const MODEL_CALL_ERROR_TYPES = new Set([...Object.keys(STATUS_CODES), ...PROVIDER_KINDS]);

/** A failed model call's error.type as a metric records it. */
export function modelCallErrorType(type: string): string {
  return MODEL_CALL_ERROR_TYPES.has(type) ? type : OTHER_VALUE;
}

/** The response models one meter records: the request model always, other names up to the bound. */
export class ResponseModels {
  private readonly seen = new Set<string>();

  recorded(responseModel: string, requestModel: string): string {
    const value = metricValue(responseModel);
    if (value === metricValue(requestModel) || this.seen.has(value)) return value;
    if (this.seen.size >= MAX_OUTSIDE_VALUES) return OTHER_VALUE;
    this.seen.add(value);
    return value;
  }
}
