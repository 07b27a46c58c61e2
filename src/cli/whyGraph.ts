/**
 * The backward slice `footprint-otel why` finds, as data: nodes (spans, or where a span should be and
 * is not), edges from a span to what produced its input, the edges cut to keep it a DAG (a link
 * cycle in a hostile or broken file), and what the bounds left out. `--json` prints it as it is; the
 * tree (whyTree.ts) draws it.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { FileAttributeValue, FileSpan } from '../telemetry/index.js';
import { semconv } from '../index.js';
import { SHOWN_ATTRIBUTES } from './whyNames.js';

export type WhyNodeKind = 'chat' | 'tool' | 'run' | 'agent' | 'hop' | 'span';

/**
 * Why a node has no span: its trace is in none of the files (another trace, never exported or not
 * kept), its trace is there but the span is not (sampled out, or lost), or reading one more linked
 * trace would pass the bound on linked traces.
 */
export type WhyMissing = 'trace_absent' | 'span_absent' | 'trace_not_read';

export interface WhyNode {
  spanId: string;
  traceId: string;
  /** The span's name ('' when it is missing). */
  name: string;
  kind: WhyNodeKind;
  /** The attributes a line shows (member, route, skill, iteration, model, tokens, cost, ids, folds). */
  attributes: Record<string, FileAttributeValue>;
  status?: 'error';
  missing?: WhyMissing;
  /** A hop node: the hop the link names (footprint.lineage.hop) and its event's attributes when found. */
  hop?: { id?: string; to?: string; from?: string; cause?: string };
  /** Under content capture: the start of what the span produced (an answer, a tool result, the run's input). */
  excerpt?: string;
  /** Links past the per-span bound, not followed. */
  linksNotFollowed?: number;
  /** Parts of the run's input, instructions or tool list whose producer (an ancestor span) is not in the files: a trace still being written. */
  partsUnseen?: number;
  /** A chat span without a part table (written before lineage, or by another instrumentation): what it was sent is not known. */
  noPartTable?: true;
  /** Reached, but not walked further: the node bound was hit first. */
  notWalked?: true;
}

export interface WhyEdge {
  /** The span whose input it is. */
  from: string;
  /** The span that produced it. */
  to: string;
  /** gen_ai.attribution.link_type of the link; null for a part the span's part table names without a link (the run's input, the agent's instructions and tools). */
  linkType: string | null;
  /** footprint.lineage.origin (tool_result, skill, …), `generation` for CAUSED_BY_GENERATION, `retry` for RETRY_OF. */
  origin: string;
  /** footprint.lineage.part_indexes of a link; for a part-table edge, the parts' positions in the table. */
  partIndexes: number[];
  /** footprint.lineage.tokens (a link) or the parts' token sum (a part-table edge), when known. */
  tokens?: number;
  /** The producer's trace, when it is not the consumer's. */
  toTraceId?: string;
  /** The link's attributes were dropped (by Jaeger's storage): type, origin and parts read off the spans at both ends. */
  inferred?: true;
}

export interface WhyGraph {
  /** The span the slice starts at: the chat span that gave the answer, or --span. */
  root: string;
  traceId: string;
  runId?: string;
  nodes: WhyNode[];
  edges: WhyEdge[];
  /** Edges left out because they close a cycle (only a hostile or broken file has one). */
  cycles: { from: string; to: string }[];
  /** What the bounds left out: nodes not walked. */
  notWalked: number;
}

/** The node of a span that is there. */
export function nodeOfSpan(span: FileSpan, kind: WhyNodeKind): WhyNode {
  const attributes: Record<string, FileAttributeValue> = {};
  for (const key of SHOWN_ATTRIBUTES) if (span.attributes[key] !== undefined) attributes[key] = span.attributes[key]!;
  const excerpt = excerptOf(span);
  return {
    spanId: span.spanId,
    traceId: span.traceId,
    name: span.name,
    kind,
    attributes,
    ...(span.status.code === SpanStatusCode.ERROR ? { status: 'error' as const } : {}),
    ...(excerpt === undefined ? {} : { excerpt }),
    ...(kind === 'chat' && span.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS] === undefined ? { noPartTable: true as const } : {}),
  };
}

/** The node of a span that is not there. */
export function missingNode(traceId: string, spanId: string, missing: WhyMissing, kind: WhyNodeKind): WhyNode {
  return { spanId, traceId, name: '', kind, attributes: {}, missing };
}

/** What a span is, for the slice: a model call, a tool call, a run, an agent, or anything else. */
export function kindOfSpan(span: FileSpan): WhyNodeKind {
  const operation = span.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME];
  if (operation === 'chat') return 'chat';
  if (operation === 'execute_tool') return 'tool';
  if (span.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== undefined) return 'run';
  if (operation === 'invoke_agent') return 'agent';
  return 'span';
}

/** Longest excerpt kept; the tree cuts lines again on the way out. */
const EXCERPT_CHARS = 80;

/**
 * The start of what a span produced, only when content capture wrote it: a chat span's output
 * messages (text, else the tools it asked for), a tool call's result, a run's input messages.
 */
function excerptOf(span: FileSpan): string | undefined {
  const output = span.attributes[semconv.ATTR_GEN_AI_OUTPUT_MESSAGES] ?? span.attributes[semconv.ATTR_GEN_AI_INPUT_MESSAGES];
  const result = span.attributes[semconv.ATTR_GEN_AI_TOOL_CALL_RESULT];
  const text = typeof output === 'string' ? messagesText(output) : typeof result === 'string' ? result : undefined;
  if (text === undefined) return undefined;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}

/** The text of GenAI message JSON (gen_ai.*.messages); the raw string when it is not that. */
function messagesText(json: string): string {
  let messages: unknown;
  try {
    messages = JSON.parse(json);
  } catch {
    return json;
  }
  if (!Array.isArray(messages)) return json;
  const texts: string[] = [];
  for (const message of messages) {
    for (const part of Array.isArray(message?.parts) ? message.parts : []) {
      if (part?.type === 'text' && typeof part.content === 'string') texts.push(part.content);
      else if (part?.type === 'tool_call' && typeof part.name === 'string') texts.push(`[asks ${part.name}]`);
    }
  }
  return texts.join(' ');
}
