/**
 * Lineage written the way the exporter writes it: spans made with the real OTel SDK (a
 * BasicTracerProvider, links given at start with the contract's attributes, the run's answer named
 * by attributes at its end) and written through the project's file exporter, so `why` reads the real format.
 * A fixture names its spans; `ids` maps each name to the span id the SDK gave it.
 */
import { context, trace, type Attributes, type Link, type Span, type SpanContext } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { fileSpanExporter } from '../../src/telemetry/files/fileExporters.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { semconv } from '../../src/index.js';

export interface LinkSpec {
  to: string;
  type: 'INFORMED_BY' | 'CAUSED_BY_GENERATION' | 'RETRY_OF';
  origin?: string;
  parts?: number[];
  tokens?: number;
  producer?: string;
  hop?: string;
}

export interface SpanSpec {
  name: string;
  /** Span name as exported. */
  title: string;
  parent?: string;
  attributes?: Attributes;
  links?: LinkSpec[];
  /** A hop event (footprint.skill.hop) on this span. */
  hop?: { id: string; to: string; from?: string; cause: string };
  error?: string;
  /** Links added after every span is made (Span.addLink), so two spans can link each other. */
  laterLinks?: LinkSpec[];
  /** Never ended, so never exported: a span sampled out or lost. */
  unexported?: true;
}

export interface Written {
  ids: Map<string, string>;
  traceIds: Map<string, string>;
}

/**
 * Writes the spans into `directory` (files of a session of their own), in the order given: a span's
 * parent and the spans it links to at start come before it; `foreign` names span contexts of spans
 * not written here (another trace, or one never exported). `answer` names a chat span
 * in the footprint.lineage.answer.* attributes of the run's span at its end, as the run span does: the
 * first span, or `answerOn` (a resumed segment's span).
 */
export async function writeLineage(
  directory: string,
  specs: SpanSpec[],
  options: { answer?: string; answerOn?: string; foreign?: Record<string, SpanContext>; linkLimit?: number } = {},
): Promise<Written> {
  const exporter = fileSpanExporter({ directory });
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 100_000, maxExportBatchSize: 5_000 })],
    ...(options.linkLimit === undefined ? {} : { spanLimits: { linkCountLimit: options.linkLimit } }),
  });
  const tracer = provider.getTracer('why-fixture');
  const spans = new Map<string, Span>();
  const contexts = new Map<string, SpanContext>(Object.entries(options.foreign ?? {}));
  const unexported = new Set(specs.filter((s) => s.unexported).map((s) => s.name));
  for (const spec of specs) {
    const parent = spec.parent === undefined ? undefined : spans.get(spec.parent);
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    const links: Link[] = (spec.links ?? []).map((link) => ({ context: contextOf(link.to), attributes: linkAttributes(link) }));
    const span = tracer.startSpan(spec.title, { attributes: spec.attributes ?? {}, links, root: parent === undefined }, ctx);
    if (spec.hop) {
      const name = 'footprint.skill.hop';
      span.addEvent(name, {
        [`${name}.hop_id`]: spec.hop.id,
        [`${name}.to`]: spec.hop.to,
        ...(spec.hop.from ? { [`${name}.from`]: spec.hop.from } : {}),
        [`${name}.cause`]: spec.hop.cause,
      });
    }
    if (spec.error) span.setStatus({ code: 2, message: spec.error });
    spans.set(spec.name, span);
    contexts.set(spec.name, span.spanContext());
  }
  function contextOf(name: string): SpanContext {
    const known = contexts.get(name);
    if (known) return known;
    throw new Error(`fixture: link to ${name} before it was made`);
  }
  for (const spec of specs) {
    for (const link of spec.laterLinks ?? []) spans.get(spec.name)!.addLink({ context: contextOf(link.to), attributes: linkAttributes(link) });
  }
  if (options.answer) {
    const callId = specs.find((spec) => spec.name === options.answer)?.attributes?.[semconv.ATTR_FOOTPRINT_LLM_CALL_ID];
    spans.get(options.answerOn ?? specs[0]!.name)!.setAttributes({
      [semconv.ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID]: contextOf(options.answer).spanId,
      ...(typeof callId === 'string' ? { [semconv.ATTR_FOOTPRINT_LINEAGE_ANSWER_PRODUCER]: callId } : {}),
    });
  }
  for (const [name, span] of [...spans].reverse()) if (!unexported.has(name)) span.end();
  await provider.forceFlush();
  await provider.shutdown();
  return {
    ids: new Map([...contexts].map(([name, c]) => [name, c.spanId])),
    traceIds: new Map([...contexts].map(([name, c]) => [name, c.traceId])),
  };
}

function linkAttributes(link: LinkSpec): Attributes {
  return {
    [semconv.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE]: link.type,
    ...(link.origin ? { [semconv.ATTR_FOOTPRINT_LINEAGE_ORIGIN]: link.origin } : {}),
    ...(link.parts ? { [semconv.ATTR_FOOTPRINT_LINEAGE_PART_INDEXES]: link.parts } : {}),
    ...(link.tokens !== undefined ? { [semconv.ATTR_FOOTPRINT_LINEAGE_TOKENS]: link.tokens } : {}),
    ...(link.producer ? { [semconv.ATTR_FOOTPRINT_LINEAGE_PRODUCER]: link.producer } : {}),
    ...(link.hop ? { [semconv.ATTR_FOOTPRINT_LINEAGE_HOP]: link.hop } : {}),
  };
}

/** A chat span's attributes: model, member, route, skill, iteration, tokens, cost, and its part table. */
export function chat(options: { callId: string; model: string; agent: string; skill?: string; iteration: number; input: number; output: number; cost: number; parts: [origin: string, producer: string, tokens: number][] }): Attributes {
  return {
    [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'chat',
    [semconv.ATTR_GEN_AI_REQUEST_MODEL]: options.model,
    [semconv.ATTR_FOOTPRINT_AGENT]: options.agent,
    [semconv.ATTR_FOOTPRINT_LLM_CALL_ID]: options.callId,
    [semconv.ATTR_FOOTPRINT_ITERATION]: options.iteration,
    ...(options.skill ? { [semconv.ATTR_FOOTPRINT_SKILL]: options.skill } : {}),
    [semconv.ATTR_FOOTPRINT_ROUTE]: `desk>${options.agent}`,
    [semconv.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: options.input,
    [semconv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: options.output,
    [semconv.ATTR_FOOTPRINT_COST_USD]: options.cost,
    [semconv.ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS]: options.parts.map((p) => p[0]),
    [semconv.ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS]: options.parts.map((p) => p[1]),
    [semconv.ATTR_FOOTPRINT_LINEAGE_PART_TOKENS]: options.parts.map((p) => p[2]),
  };
}

export function tool(name: string, callId: string, iteration: number): Attributes {
  return {
    [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
    [semconv.ATTR_GEN_AI_TOOL_NAME]: name,
    [semconv.ATTR_GEN_AI_TOOL_CALL_ID]: callId,
    [semconv.ATTR_FOOTPRINT_AGENT]: 'tech',
    [semconv.ATTR_FOOTPRINT_ITERATION]: iteration,
  };
}

/** No path leads from a node back to itself. */
export function isDag(graph: WhyGraph): boolean {
  const out = new Map<string, string[]>();
  for (const edge of graph.edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge.to]);
  const state = new Map<string, 'open' | 'done'>();
  for (const start of graph.nodes.map((n) => n.spanId)) {
    if (state.has(start)) continue;
    const stack: { id: string; exit: boolean }[] = [{ id: start, exit: false }];
    while (stack.length > 0) {
      const { id, exit } = stack.pop()!;
      if (exit) {
        state.set(id, 'done');
        continue;
      }
      if (state.get(id) === 'done') continue;
      if (state.get(id) === 'open') return false;
      state.set(id, 'open');
      stack.push({ id, exit: true });
      for (const to of out.get(id) ?? []) {
        if (state.get(to) === 'open') return false;
        if (state.get(to) !== 'done') stack.push({ id: to, exit: false });
      }
    }
  }
  return true;
}
