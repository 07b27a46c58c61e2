/**
 * `footprint-otel demo` (what `npm start` runs): the support desk over a seeded ticket mix, traced
 * and metered through startTelemetry(). Prints the waterfall of one run (the latest that tripped a
 * loop guard, else the latest) and a summary of every run, and says where the telemetry went.
 * Only this invocation's runs are candidates for the waterfall (the trace file keeps earlier ones).
 * The span pipeline is sized for the demo's burst of spans unless OTEL_BSP_* says otherwise.
 */
import { isPaused } from '../index.js';
import { semconv } from '../otel/index.js';
import { readSpans, startTelemetry, type TelemetryHandle } from '../telemetry/index.js';
import { buildDesk } from './desk/desk.js';
import { deskModels } from './desk/providers.js';
import { customTicket, generateTickets, type Ticket } from './desk/tickets.js';
import { Progress } from './progress.js';
import { emptySummary, formatSummary, summarize, type DemoSummary } from './summary.js';
import { chooseRun, groupRuns, toViewSpan } from './traces.js';
import { renderWaterfall } from './waterfall.js';

export interface DemoOptions {
  runs: number;
  concurrency: number;
  seed: number;
  ticket?: string;
  color: boolean;
  /** Show a progress bar (load mode). */
  progress: boolean;
}

export interface DemoResult {
  lines: string[];
  /** Telemetry trouble (failed exports, dropped spans), for stderr. */
  warnings: string[];
  summary: DemoSummary;
}

/**
 * The OTel defaults (a queue of 2048 spans, exported 512 at a time, one export at a time) cannot keep
 * up with the desk run flat out: thousands of spans a second, while each export takes several turns
 * of a busy event loop, so the queue overflowed and spans were dropped. Bigger batches keep the
 * exporter ahead of the load; OTEL_BSP_* still win when set.
 */
const DEMO_SPAN_QUEUE = { maxQueueSize: 16_384, maxExportBatchSize: 2_048 };

/**
 * A demo lasts seconds, not minutes: at the SDK's 60 s default it would export its metrics once, at
 * exit, and every rate()/increase() panel would have one sample per series. Every 5 s (and once more
 * at exit) gives a load of ~15 s several samples. OTEL_METRIC_EXPORT_INTERVAL still wins when set.
 */
const DEMO_METRIC_INTERVAL_MS = 5_000;

export async function demoCommand(options: DemoOptions): Promise<DemoResult> {
  const telemetry = startTelemetry({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'footprint-otel-demo',
    maxQueueSize: process.env.OTEL_BSP_MAX_QUEUE_SIZE ? undefined : DEMO_SPAN_QUEUE.maxQueueSize,
    maxExportBatchSize: process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE ? undefined : DEMO_SPAN_QUEUE.maxExportBatchSize,
    metricExportIntervalMs: process.env.OTEL_METRIC_EXPORT_INTERVAL ? undefined : DEMO_METRIC_INTERVAL_MS,
  });
  const models = deskModels(options.seed);
  const desk = buildDesk(models);
  const summary = emptySummary();
  const stopSummary = summarize(desk, summary);
  const runIds = new Set<string>();
  desk.on('*', (e) => {
    runIds.add(e.meta.runId);
  });
  const tickets: Ticket[] = options.ticket ? [customTicket(options.ticket)] : generateTickets(options.runs, options.seed);
  const progress = options.progress ? new Progress(tickets.length) : undefined;
  const answers: string[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < tickets.length) {
      const ticket = tickets[next++]!;
      const sessionId = ticket.id;
      try {
        const out = await desk.run(ticket.text, { sessionId });
        if (!isPaused(out) && tickets.length === 1) answers.push(out);
      } catch {
        // counted by the summary as an error run; the trace says why
      }
      progress?.update(++done, `$${summary.costUsd.toFixed(4)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, tickets.length) }, worker));
  stopSummary();
  // Shut down before reading the trace file back: shutdown waits until every export has been
  // written (forceFlush does not wait for an export already under way), and no export is then left
  // to time out while the file is parsed.
  await telemetry.shutdown();

  const lines: string[] = [];
  lines.push(...(await waterfallOfOneRun(telemetry, runIds, options.color)));
  if (answers.length > 0) lines.push('', `answer: ${answers[0]}`);
  lines.push('', `Support desk (${models.mode} models, seed ${options.seed}):`, ...formatSummary(summary), '', ...whereTelemetryWent(telemetry));
  return { lines, warnings: telemetryWarnings(telemetry), summary };
}

/** The waterfall of one of this invocation's runs (the trace file also holds earlier invocations'). */
async function waterfallOfOneRun(telemetry: TelemetryHandle, runIds: ReadonlySet<string>, color: boolean): Promise<string[]> {
  const destination = telemetry.destination;
  if (destination.kind === 'disabled') return ['(telemetry is disabled, so there is no trace to show)'];
  if (destination.kind !== 'files') {
    return ['(the waterfall view reads the telemetry files; with an OTLP endpoint, open the run in Jaeger)'];
  }
  const runs = groupRuns((await readSpans(destination.traces)).map(toViewSpan)).filter((r) =>
    runIds.has(String(r.root.attributes[semconv.FP_RUN_ID])),
  );
  const run = chooseRun(runs, { trips: true }) ?? chooseRun(runs, {});
  if (!run) return ['(no trace was written)'];
  const why = run.trips ? `a run that tripped a loop guard (${run.trips})` : 'the latest run';
  return [`Trace ${run.traceId}: ${why}`, ...renderWaterfall(run.spans, { color })];
}

function whereTelemetryWent(telemetry: TelemetryHandle): string[] {
  const destination = telemetry.destination;
  const lines: string[] = [];
  if (destination.kind === 'files') {
    lines.push('Telemetry written to:', `  traces  ${destination.traces}`, `  metrics ${destination.metrics}`);
    lines.push('  view a stored run again: npx footprint-otel view telemetry/ [--trips]');
  } else if (destination.kind === 'otlp') {
    lines.push(`Telemetry sent over OTLP/HTTP: ${destination.traces}, ${destination.metrics}`);
    lines.push('  Jaeger:  http://localhost:16686 (service footprint-otel-demo; search tag footprint.trip.kinds)');
    lines.push('  Grafana: http://localhost:3000 (folder footprint-otel: the four dashboards)');
  } else {
    lines.push('Telemetry is disabled (OTEL_SDK_DISABLED=true).');
  }
  return lines;
}

function telemetryWarnings(telemetry: TelemetryHandle): string[] {
  const destination = telemetry.destination;
  const health = telemetry.health();
  const warnings: string[] = [];
  const failures = health.exportFailures.traces + health.exportFailures.metrics;
  if (failures > 0) {
    const where =
      destination.kind === 'otlp'
        ? `is the collector at ${destination.traces} reachable?`
        : destination.kind === 'files'
          ? `writing ${destination.traces} or ${destination.metrics} failed or took too long`
          : '';
    warnings.push(`warning: ${failures} telemetry export(s) failed (traces ${health.exportFailures.traces}, metrics ${health.exportFailures.metrics}); ${where}`);
  }
  if (health.spansDropped > 0) {
    warnings.push(
      `warning: ${health.spansDropped} span(s) were dropped because the span queue was full; raise OTEL_BSP_MAX_QUEUE_SIZE (now ${process.env.OTEL_BSP_MAX_QUEUE_SIZE ?? DEMO_SPAN_QUEUE.maxQueueSize}) or lower --concurrency`,
    );
  }
  return warnings;
}
