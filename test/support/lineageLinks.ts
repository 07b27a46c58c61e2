/**
 * Reading a run's lineage links back, to compare with the lineage written down from a scenario
 * (docs/lineage.md). Every link of every chat, execute_tool and run span becomes one line holding its
 * whole attribute map and the span it points to, named by kind and identity:
 *
 *   INFORMED_BY tool_result messages[2] 16c/4t call#1:c1 → execute_tool lookup c1
 *
 * A run span names the chat span of its answer in attributes, not a link (footprint.lineage.answer.*:
 * Jaeger would reparent a root span on a same-trace link); they make its first line,
 *
 *   answer call#3 → chat m1 call#3
 *
 * Ids that differ per process are numbered in order of first appearance: model calls (`call#N`, by
 * chat span start), hops (`hop#N`), runs (`run#N`), tool call ids a scripted provider made up (`tool#N`). A target that is not among the spans given is
 * `(absent)`; an attribute the format does not name is printed as key=value, so none goes unchecked.
 */
import type { Attributes, Link } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import { toMs } from './traceTree.js';

const NAMED = new Set([
  'gen_ai.attribution.link_type',
  'footprint.link.type',
  'footprint.lineage.origin',
  'footprint.lineage.slot',
  'footprint.lineage.part_indexes',
  'footprint.lineage.chars',
  'footprint.lineage.tokens',
  'footprint.lineage.producer',
  'footprint.lineage.hop',
  'footprint.lineage.fingerprints',
]);

export class LineageReader {
  private readonly spans: ReadableSpan[];
  private readonly names = new Map<string, string>();
  private readonly counts = { call: 0, hop: 0, run: 0, tool: 0 };

  constructor(spans: readonly ReadableSpan[]) {
    this.spans = [...spans].sort((a, b) => toMs(a.startTime) - toMs(b.startTime));
    for (const span of this.spans) {
      const callId = span.attributes['footprint.llm.call_id'];
      if (typeof callId === 'string') this.id(callId, 'call');
      const runId = span.attributes['footprint.run.id'];
      if (typeof runId === 'string' && span.parentSpanContext === undefined) this.id(runId, 'run');
    }
  }

  /** The links of every chat, execute_tool and run span that has any (a run span's answer first), by span label, in start order. */
  all(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const span of this.spans) {
      const answer = this.answer(span);
      if (span.links.length === 0 && answer === undefined) continue;
      const label = this.label(span);
      let key = label;
      for (let n = 2; key in out; n++) key = `${label} (${n})`;
      out[key] = [...(answer === undefined ? [] : [answer]), ...span.links.map((link) => this.line(link))];
    }
    return out;
  }

  /** A run span's answer attributes as a line (`answer call#3 → chat m1 call#3`); undefined without them. */
  answer(span: ReadableSpan): string | undefined {
    const spanId = span.attributes['footprint.lineage.answer.span_id'];
    const producer = span.attributes['footprint.lineage.answer.producer'];
    if (spanId === undefined && producer === undefined) return undefined;
    const target = this.spans.find((s) => s.spanContext().spanId === spanId && s.spanContext().traceId === span.spanContext().traceId);
    return `answer ${this.producer(String(producer))} → ${target ? this.label(target) : '(absent)'}`;
  }

  /**
   * The label of a span: `chat m1 call#2`, `execute_tool lookup c1`, `run invoke_agent Helper`, a stage
   * span with its runtime id (`CallLLM call-llm#3`: which execution of the stage), else its name (and member).
   */
  label(span: ReadableSpan): string {
    const a = span.attributes;
    if (typeof a['footprint.llm.call_id'] === 'string') return `${span.name} ${this.id(a['footprint.llm.call_id'], 'call')}`;
    if (typeof a['gen_ai.tool.call.id'] === 'string') return `${span.name} ${this.toolCall(a['gen_ai.tool.call.id'])}`;
    if (span.parentSpanContext === undefined || a['footprint.run.id'] !== undefined) return `run ${span.name}`;
    if (typeof a['footprint.stage.runtime_id'] === 'string') return `${span.name} ${a['footprint.stage.runtime_id']}`;
    const member = a['footprint.member.id'] ?? a['gen_ai.agent.id'];
    return member === undefined ? span.name : `${span.name} (${String(member)})`;
  }

  /** A producer id with its per-process ids numbered. */
  producer(id: string): string {
    const [head, ...rest] = id.split(':');
    const kind = head!.startsWith('hop_') ? 'hop' : head!.startsWith('run_') ? 'run' : 'call';
    return [this.id(head!, kind), ...rest.map((toolCallId) => this.toolCall(toolCallId))].join(':');
  }

  /** A tool call id, numbered when a scripted provider generated it (`call_<n>_<i>_<j>`, per process). */
  private toolCall(id: string): string {
    return /^call_\d+_\d+_\d+$/.test(id) ? this.id(id, 'tool') : id;
  }

  private line(link: Link): string {
    const a: Attributes = link.attributes ?? {};
    const words: string[] = [String(a['gen_ai.attribution.link_type'] ?? a['footprint.link.type'])];
    if (a['footprint.lineage.origin'] !== undefined) words.push(String(a['footprint.lineage.origin']));
    if (a['footprint.lineage.slot'] !== undefined) words.push(`${String(a['footprint.lineage.slot'])}[${(a['footprint.lineage.part_indexes'] as number[]).join(',')}]`);
    if (a['footprint.lineage.chars'] !== undefined) words.push(`${String(a['footprint.lineage.chars'])}c/${String(a['footprint.lineage.tokens'])}t`);
    if (a['footprint.lineage.producer'] !== undefined) words.push(this.producer(String(a['footprint.lineage.producer'])));
    if (a['footprint.lineage.hop'] !== undefined) words.push(`hop=${this.producer(String(a['footprint.lineage.hop']))}`);
    if (a['footprint.lineage.fingerprints'] !== undefined) words.push(`fp=${(a['footprint.lineage.fingerprints'] as string[]).length}`);
    for (const [key, value] of Object.entries(a)) if (!NAMED.has(key)) words.push(`${key}=${JSON.stringify(value)}`);
    const target = this.spans.find((s) => s.spanContext().spanId === link.context.spanId && s.spanContext().traceId === link.context.traceId);
    return `${words.join(' ')} → ${target ? this.label(target) : '(absent)'}`;
  }

  private id(raw: string, kind: 'call' | 'hop' | 'run' | 'tool'): string {
    let name = this.names.get(raw);
    if (name === undefined) {
      name = `${kind}#${++this.counts[kind]}`;
      this.names.set(raw, name);
    }
    return name;
  }
}

/** The lineage of the spans given, as LineageReader.all() prints it. */
export function lineageOf(spans: readonly ReadableSpan[]): Record<string, string[]> {
  return new LineageReader(spans).all();
}

/** The part arrays of a chat span sent only the run's input (no instructions, no tools), of `tokens` estimated tokens. */
export function runInputParts(tokens: number): Record<string, unknown> {
  return {
    'footprint.lineage.part.origins': ['run_input'],
    'footprint.lineage.part.producers': [expect.stringMatching(/^run_[0-9a-z]+$/)],
    'footprint.lineage.part.tokens': [tokens],
  };
}

/**
 * A chat span's whole part table, read the way docs/lineage.md defines it: the first
 * `footprint.lineage.shared.parts` parts of the chat span it names (its whole table in turn), then its
 * own arrays. A test's own reading, apart from `why`'s (src/cli/whyPartTable.ts); parts folded out are
 * not expected here.
 */
export function wholePartTable(span: ReadableSpan, spans: readonly ReadableSpan[]): { origins: unknown[]; producers: unknown[]; tokens: unknown[] } {
  const a = span.attributes;
  const own = { origins: [...(a['footprint.lineage.part.origins'] as unknown[])], producers: [...(a['footprint.lineage.part.producers'] as unknown[])], tokens: [...(a['footprint.lineage.part.tokens'] as unknown[])] };
  const shared = a['footprint.lineage.shared.parts'];
  if (shared === undefined) return own;
  const before = spans.find((s) => s.spanContext().spanId === a['footprint.lineage.shared.span_id']);
  if (before === undefined) throw new Error(`the chat span ${span.name} shares parts with a span that is not here`);
  const theirs = wholePartTable(before, spans);
  const n = shared as number;
  return { origins: [...theirs.origins.slice(0, n), ...own.origins], producers: [...theirs.producers.slice(0, n), ...own.producers], tokens: [...theirs.tokens.slice(0, n), ...own.tokens] };
}
