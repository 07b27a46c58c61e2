/**
 * The names `footprint-otel why` reads off spans and links: the lineage attributes of issue #36
 * (gen_ai.attribution.link_type, proposed by semantic-conventions-genai PR #370, and footprint.lineage.*)
 * and the ones a slice's lines show (member, route, skill, iteration, model, tokens, cost, content).
 */
import { semconv } from '../index.js';

export const LINK_TYPE = 'gen_ai.attribution.link_type';
export const LINK_INFORMED_BY = 'INFORMED_BY';
export const LINK_CAUSED_BY_GENERATION = 'CAUSED_BY_GENERATION';
export const LINK_RETRY_OF = semconv.LINK_RETRY_OF;

export const LINEAGE_ORIGIN = 'footprint.lineage.origin';
export const LINEAGE_SLOT = 'footprint.lineage.slot';
export const LINEAGE_PART_INDEXES = 'footprint.lineage.part_indexes';
export const LINEAGE_CHARS = 'footprint.lineage.chars';
export const LINEAGE_TOKENS = 'footprint.lineage.tokens';
export const LINEAGE_FINGERPRINTS = 'footprint.lineage.fingerprints';
export const LINEAGE_PRODUCER = 'footprint.lineage.producer';
export const LINEAGE_HOP = 'footprint.lineage.hop';
export const LINEAGE_LINKS_FOLDED = 'footprint.lineage.links_folded';
export const LINEAGE_PARTS_FOLDED = 'footprint.lineage.parts_folded';
export const LINEAGE_PART_ORIGINS = 'footprint.lineage.part.origins';
export const LINEAGE_PART_PRODUCERS = 'footprint.lineage.part.producers';
export const LINEAGE_PART_TOKENS = 'footprint.lineage.part.tokens';

/** The origin a link to the chat span that gave the run's answer carries (on the run span). */
export const ORIGIN_ANSWER = 'answer';

/** Span attributes a slice's node keeps (the --json subset) and its line shows. */
export const SHOWN_ATTRIBUTES = [
  semconv.ATTR_GEN_AI_OPERATION_NAME,
  semconv.ATTR_FOOTPRINT_RUN_ID,
  semconv.ATTR_FOOTPRINT_AGENT,
  semconv.ATTR_FOOTPRINT_MEMBER_ID,
  semconv.ATTR_FOOTPRINT_ROUTE,
  semconv.ATTR_FOOTPRINT_SKILL,
  semconv.ATTR_FOOTPRINT_ITERATION,
  semconv.ATTR_GEN_AI_REQUEST_MODEL,
  semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  semconv.ATTR_FOOTPRINT_COST_USD,
  semconv.ATTR_FOOTPRINT_LLM_CALL_ID,
  semconv.ATTR_GEN_AI_TOOL_NAME,
  semconv.ATTR_GEN_AI_TOOL_CALL_ID,
  LINEAGE_LINKS_FOLDED,
  LINEAGE_PARTS_FOLDED,
] as const;
