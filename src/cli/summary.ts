/**
 * The demo's summary, built from the same typed events the telemetry is made of (cost by route and
 * by model, trips by kind, escalations, tool failures, streamed calls' time to first chunk) and, for
 * runs and outcomes, from the one outcome the runtime decides per run, the same value the run span
 * and the runs metric carry. Model calls, tokens and cost are the calls' llm_end records added up
 * the one way every total of them is (events/modelCalls.ts), so the summary's call count
 * is the run spans' (every call, failed ones included). A route is printed as the metrics label it
 * (`footprint.route`): the empty route, a call under no routing composition, shows as "".
 */
import { addModelCall, type ModelCallTotals } from '../events/index.js';
import { outcomeLabel, registerInstrument, type Runner, type TypedEvent } from '../index.js';

export interface DemoSummary extends ModelCallTotals {
  runs: number;
  outcomes: Record<string, number>;
  /** Answered calls' cost by route (the footprint.route label: '' for none) and by model, as footprint.llm.cost.usd records it. */
  costByRoute: Record<string, number>;
  costByModel: Record<string, number>;
  trips: Record<string, number>;
  escalations: number;
  rejections: number;
  toolFailures: number;
  /** The time to first chunk of every streamed model call whose first chunk came (ms, in arrival order). */
  firstChunksMs: number[];
}

export function emptySummary(): DemoSummary {
  return {
    runs: 0,
    outcomes: {},
    llmCalls: 0,
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    costByRoute: {},
    costByModel: {},
    trips: { ping_pong: 0, rejected_cap: 0 },
    escalations: 0,
    rejections: 0,
    toolFailures: 0,
    firstChunksMs: [],
  };
}

/** Folds a runner's events and each of its runs' outcome into the summary; returns how to stop. */
export function summarize(runner: Runner, summary: DemoSummary): () => void {
  const stopListening = runner.on('*', (event: TypedEvent) => {
    switch (event.type) {
      case 'footprint.call.llm_end': {
        const p = event.payload as TypedEvent<'footprint.call.llm_end'>['payload'];
        Object.assign(summary, addModelCall(summary, p));
        if (p.streamed?.firstChunkMs !== undefined) summary.firstChunksMs.push(p.streamed.firstChunkMs);
        if (p.error) break;
        const route = event.meta.route;
        summary.costByRoute[route] = (summary.costByRoute[route] ?? 0) + p.cost.usd;
        summary.costByModel[p.model] = (summary.costByModel[p.model] ?? 0) + p.cost.usd;
        break;
      }
      case 'footprint.loop_guard.trip': {
        const kind = (event.payload as TypedEvent<'footprint.loop_guard.trip'>['payload']).kind;
        summary.trips[kind] = (summary.trips[kind] ?? 0) + 1;
        break;
      }
      case 'footprint.skill.escalated':
        summary.escalations++;
        break;
      case 'footprint.skill.rejected':
        summary.rejections++;
        break;
      case 'footprint.call.tool_end':
        if ((event.payload as TypedEvent<'footprint.call.tool_end'>['payload']).status === 'error') summary.toolFailures++;
        break;
    }
  });
  const stopCounting = registerInstrument({
    id: `footprint-otel.demo-summary.${runner.id}`,
    start: (run) =>
      run.tree.root.kind !== runner.kind || run.tree.root.id !== runner.id
        ? undefined
        : {
            finished: (outcome) => {
              const label = outcomeLabel(outcome);
              summary.runs++;
              summary.outcomes[label] = (summary.outcomes[label] ?? 0) + 1;
            },
          },
  });
  return () => {
    stopListening();
    stopCounting();
  };
}

export function formatSummary(summary: DemoSummary): string[] {
  const money = (n: number) => `$${n.toFixed(6)}`;
  const table = (record: Record<string, number>) =>
    Object.entries(record)
      .sort((a, b) => b[1] - a[1])
      .map(([key, value]) => `    ${(key === '' ? '""' : key).padEnd(28)} ${money(value)}`);
  return [
    `runs: ${summary.runs}   outcomes: ${Object.entries(summary.outcomes).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `LLM calls: ${summary.llmCalls}   total cost: ${money(summary.costUsd)}`,
    `tokens: input ${summary.tokens.input}, output ${summary.tokens.output}`,
    '  cost by route:',
    ...table(summary.costByRoute),
    '  cost by model:',
    ...table(summary.costByModel),
    `trips: ping_pong ${summary.trips.ping_pong ?? 0}, rejected_cap ${summary.trips.rejected_cap ?? 0}   escalations: ${summary.escalations}   skill rejections: ${summary.rejections}   tool failures: ${summary.toolFailures}`,
    ...firstChunkLine(summary.firstChunksMs),
  ];
}

/** The p50 and p95 time to first chunk of the streamed calls (none when nothing streamed). */
function firstChunkLine(firstChunksMs: readonly number[]): string[] {
  if (firstChunksMs.length === 0) return [];
  const sorted = [...firstChunksMs].sort((a, b) => a - b);
  const ms = (q: number) => `${percentile(sorted, q).toFixed(1)} ms`;
  return [`time to first chunk: p50 ${ms(0.5)}, p95 ${ms(0.95)} over ${sorted.length} streamed model calls`];
}

/** The nearest-rank percentile of sorted values: the smallest value with at least q of them at or below it. */
export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}
