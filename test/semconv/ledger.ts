/**
 * One run's accounting read three ways, so the agreement tests can compare them: from the chat spans
 * (plus the run span's outcome), from the run span's roll-ups, and from the metrics. Costs are
 * rounded to 1e-12 USD because the two sides add the same per-call floats in different orders.
 */
import type { DataPoint, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface Ledger {
  outcome: string;
  /** Model calls made. */
  calls: number;
  /** Model calls whose usage was reported. */
  usageReports: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** error.type of each failed model call, sorted. */
  callErrors: string[];
}

const usd = (value: number) => Math.round(value * 1e12) / 1e12;

function rootOf(spans: readonly ReadableSpan[]): ReadableSpan {
  const roots = spans.filter((span) => span.parentSpanContext === undefined);
  if (roots.length !== 1) throw new Error(`expected one run span, found ${roots.map((r) => r.name).join(', ') || 'none'}`);
  return roots[0]!;
}

export function ledgerFromSpans(spans: readonly ReadableSpan[]): Ledger {
  const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
  const sum = (key: string) => chats.reduce((total, chat) => total + Number(chat.attributes[key] ?? 0), 0);
  return {
    outcome: String(rootOf(spans).attributes['footprint.run.outcome']),
    calls: chats.length,
    usageReports: chats.filter((chat) => chat.attributes['gen_ai.usage.input_tokens'] !== undefined).length,
    inputTokens: sum('gen_ai.usage.input_tokens'),
    outputTokens: sum('gen_ai.usage.output_tokens'),
    costUsd: usd(sum('footprint.cost.usd')),
    callErrors: chats.flatMap((chat) => (chat.attributes['error.type'] === undefined ? [] : [String(chat.attributes['error.type'])])).sort(),
  };
}

/** The run span's own roll-ups (only the fields it carries). */
export function rollupFromRunSpan(spans: readonly ReadableSpan[]): Pick<Ledger, 'inputTokens' | 'outputTokens' | 'costUsd'> {
  const root = rootOf(spans).attributes;
  return {
    inputTokens: Number(root['footprint.tokens.input']),
    outputTokens: Number(root['footprint.tokens.output']),
    costUsd: usd(Number(root['footprint.cost.usd'])),
  };
}

interface HistogramValue {
  sum?: number;
  count: number;
}

export function ledgerFromMetrics(exported: ResourceMetrics): Ledger {
  const points = (name: string): DataPoint<unknown>[] =>
    exported.scopeMetrics.flatMap((scope) => scope.metrics.filter((m) => m.descriptor.name === name).flatMap((m): DataPoint<unknown>[] => m.dataPoints));
  const tokens = (type: string) => points('gen_ai.client.token.usage').filter((p) => p.attributes['gen_ai.token.type'] === type);
  const histogram = (value: unknown) => value as HistogramValue;
  const outcomes = points('footprint.runs').map((p) => String(p.attributes['footprint.run.outcome']));
  if (outcomes.length !== 1) throw new Error(`expected one footprint.runs series, found ${JSON.stringify(outcomes)}`);
  const durations = points('gen_ai.client.operation.duration');
  return {
    outcome: outcomes[0]!,
    calls: durations.reduce((total, p) => total + histogram(p.value).count, 0),
    usageReports: tokens('input').reduce((total, p) => total + histogram(p.value).count, 0),
    inputTokens: tokens('input').reduce((total, p) => total + (histogram(p.value).sum ?? 0), 0),
    outputTokens: tokens('output').reduce((total, p) => total + (histogram(p.value).sum ?? 0), 0),
    costUsd: usd(points('footprint.llm.cost.usd').reduce((total, p) => total + Number(p.value), 0)),
    callErrors: durations
      .filter((p) => p.attributes['error.type'] !== undefined)
      .flatMap((p) => Array<string>(histogram(p.value).count).fill(String(p.attributes['error.type'])))
      .sort(),
  };
}

/**
 * The tokens the current model's counters hold (gen_ai.client.inference.usage.*, every modality):
 * what the both mode records beside v1.41's histogram.
 */
export function tokensFromCounters(exported: ResourceMetrics): { inputTokens: number; outputTokens: number } {
  const points = (name: string): DataPoint<unknown>[] =>
    exported.scopeMetrics.flatMap((scope) => scope.metrics.filter((m) => m.descriptor.name === name).flatMap((m): DataPoint<unknown>[] => m.dataPoints));
  const total = (name: string) => points(name).reduce((sum, p) => sum + Number(p.value), 0);
  return {
    inputTokens: total('gen_ai.client.inference.usage.input_tokens'),
    outputTokens: total('gen_ai.client.inference.usage.output_tokens'),
  };
}
