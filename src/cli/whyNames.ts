/**
 * What `footprint-otel why` keeps of a span, by the names of semconv.ts (which holds every
 * lineage name of issue #36 too): the attributes a slice's node keeps and its line shows.
 */
import { semconv } from '../index.js';

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
  semconv.ATTR_FOOTPRINT_LINEAGE_LINKS_FOLDED,
  semconv.ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED,
] as const;

/** The hop events a hop's span carries (footprint.skill.hop, or its v1.41-mode name footprint.route.hop). */
export const HOP_EVENT = /^footprint\.(skill|route)\.hop$/;
