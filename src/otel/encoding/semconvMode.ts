/**
 * Which names the bridge emits while the GenAI conventions move (docs/conventions.md): the
 * conventions' current model (the default), the names of the v1.41 pin, or both for a migration
 * window. OTel's instrumentations make such moves with OTEL_SEMCONV_STABILITY_OPT_IN, a
 * comma-separated list of per-domain values (`gen_ai_latest_experimental` for GenAI, `http` and
 * `http/dup` for the HTTP migration): the same variable and shapes are read here. Their default is
 * the old names; ours is the current model, so the old names have a value of their own.
 */
import {
  ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_CACHE_WRITE_INPUT_TOKENS,
  ATTR_FOOTPRINT_ROUTE_PATH,
  ATTR_FOOTPRINT_SKILL_PATH,
  ATTR_FOOTPRINT_TURN_OUTCOME,
  EVENT_FOOTPRINT_AGENT_ROUTE_DECIDED,
  EVENT_FOOTPRINT_ROUTE_HOP,
  EVENT_FOOTPRINT_ROUTE_TRIP,
} from './semconv.js';

export type SemconvMode = 'current' | 'v1.41' | 'both';

export const SEMCONV_OPT_IN_ENV = 'OTEL_SEMCONV_STABILITY_OPT_IN';
/** The current model's names only (the default, and the GenAI value OTel's instrumentations read). */
export const OPT_IN_CURRENT = 'gen_ai_latest_experimental';
/** Both names, each renamed item once under each (the `/dup` shape of `http/dup`). */
export const OPT_IN_BOTH = 'gen_ai_latest_experimental/dup';
/** The names of the v1.41 pin only. */
export const OPT_IN_V1_41 = 'gen_ai_v1.41';

/**
 * Each renamed span-event name and attribute key by its current name, with its v1.41-mode spelling.
 * (The agent's decider stage span of full detail, `Route` in v1.41, is gone in every mode: CallLLM
 * decides the next step, agent/stages/nextStep.ts.)
 */
const V1_41_SPELLINGS: ReadonlyMap<string, string> = new Map([
  ['footprint.skill.hop', EVENT_FOOTPRINT_ROUTE_HOP],
  ['footprint.loop_guard.trip', EVENT_FOOTPRINT_ROUTE_TRIP],
  ['footprint.agent.next_step', EVENT_FOOTPRINT_AGENT_ROUTE_DECIDED],
  [ATTR_FOOTPRINT_SKILL_PATH, ATTR_FOOTPRINT_ROUTE_PATH],
  // semantic-conventions-genai #440 renamed the chat span's cache-write count.
  [ATTR_GEN_AI_USAGE_CACHE_WRITE_INPUT_TOKENS, ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS],
]);

/**
 * Attribute values the pass renamed, by key: a turn that answered is `ok`, as a run that did is (was
 * `answered`); a swarm's decision made by its pick function is `pick_fn` (was `route_fn`).
 */
const V1_41_VALUE_SPELLINGS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [ATTR_FOOTPRINT_TURN_OUTCOME, new Map([['ok', 'answered']])],
  ['footprint.agent.turn_end.outcome', new Map([['ok', 'answered']])],
  ['footprint.composition.route_decided.matched', new Map([['pick_fn', 'route_fn']])],
]);

/** The mode the environment asks for; `/dup` wins over a plain value given beside it, as it does for http. */
export function semconvModeFromEnv(env: NodeJS.ProcessEnv = process.env): SemconvMode {
  const values = new Set((env[SEMCONV_OPT_IN_ENV] ?? '').split(',').map((value) => value.trim().toLowerCase()));
  if (values.has(OPT_IN_BOTH)) return 'both';
  if (values.has(OPT_IN_V1_41)) return 'v1.41';
  return 'current';
}

/** Whether a name of the given conventions is emitted in `mode` (undefined: a name every mode shares). */
export function emitsNamesOf(mode: SemconvMode, names: 'current' | 'v1.41' | undefined): boolean {
  return names === undefined || mode === 'both' || mode === names;
}

/**
 * The one place span writers ask how a span-event name or attribute key is spelled in `mode`: its
 * v1.41 spelling in the v1.41 mode when it was renamed (V1_41_SPELLINGS above), else itself.
 */
export function spellingIn(mode: SemconvMode, name: string): string {
  return mode === 'v1.41' ? (V1_41_SPELLINGS.get(name) ?? name) : name;
}

/** The both mode's second spelling of a renamed name (its v1.41 one), written beside the first; else undefined. */
export function secondSpellingIn(mode: SemconvMode, name: string): string | undefined {
  return mode === 'both' ? V1_41_SPELLINGS.get(name) : undefined;
}

/**
 * An attribute value as `mode` spells it: the v1.41 mode keeps a renamed value's old spelling
 * (V1_41_VALUE_SPELLINGS above). A value has one spelling, so the both mode writes the current one.
 */
export function valueSpellingIn<V>(mode: SemconvMode, key: string, value: V): V | string {
  if (mode !== 'v1.41' || typeof value !== 'string') return value;
  return V1_41_VALUE_SPELLINGS.get(key)?.get(value) ?? value;
}

/** Attributes with every renamed value spelled as `mode` spells it (in place; nothing to do outside the v1.41 mode). */
export function spellValuesIn(mode: SemconvMode, attributes: Record<string, unknown>): void {
  if (mode !== 'v1.41') return;
  for (const key of V1_41_VALUE_SPELLINGS.keys()) if (key in attributes) attributes[key] = valueSpellingIn(mode, key, attributes[key]);
}
