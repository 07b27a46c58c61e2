/**
 * Metric attribute keys and the rule that keeps their values bounded. Every value the metrics record
 * comes from code (agent, skill, model, router ids) or from a closed set (outcomes, token types,
 * trip kinds); this is the last line of defence: values are cut to a fixed length and a missing value
 * is always '' (so "no skill" is one series, never a mix of undefined, null and '').
 */

export const ATTR = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  model: 'gen_ai.request.model',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  agent: 'footprint.agent',
  skill: 'footprint.skill',
  route: 'footprint.route',
  router: 'footprint.router',
  routeChosen: 'footprint.route.chosen',
  tripKind: 'footprint.trip.kind',
  runnerKind: 'footprint.runner.kind',
  runnerId: 'footprint.runner.id',
  runOutcome: 'footprint.run.outcome',
} as const;

/** Longest attribute value a metric carries; longer values are cut (ids and model names fit easily). */
export const MAX_ATTRIBUTE_CHARS = 128;

/** The bounded form of an attribute value: '' when absent, at most MAX_ATTRIBUTE_CHARS long. */
export function bounded(value: string | undefined): string {
  if (value === undefined) return '';
  return value.length > MAX_ATTRIBUTE_CHARS ? value.slice(0, MAX_ATTRIBUTE_CHARS) : value;
}
