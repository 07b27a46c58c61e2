/**
 * `footprint-otel demo` (what `npm start` runs): the support desk over a seeded ticket mix, traced
 * and metered through startTelemetry(). Prints the waterfall of one run (the latest that tripped a
 * loop guard, else the latest) and a summary of every run, and says where the telemetry went.
 */
import { isPaused } from '../index.js';
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
  summary: DemoSummary;
}

export async function demoCommand(options: DemoOptions): Promise<DemoResult> {
  const telemetry = startTelemetry({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'footprint-otel-demo' });
  const models = deskModels(options.seed);
  const desk = buildDesk(models);
  const summary = emptySummary();
  const noteOutcome = summarize(desk, summary);
  const stoppedEarly = new Set<string>();
  desk.on('footprint.agent.turn_end', (e) => {
    if (e.payload.outcome === 'stopped_early' && e.meta.sessionId) stoppedEarly.add(e.meta.sessionId);
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
        noteOutcome(isPaused(out) ? 'paused' : stoppedEarly.has(sessionId) ? 'stopped_early' : 'ok');
        if (!isPaused(out) && tickets.length === 1) answers.push(out);
      } catch {
        noteOutcome('error');
      }
      progress?.update(++done, `$${summary.costUsd.toFixed(4)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, tickets.length) }, worker));
  await telemetry.forceFlush();

  const lines: string[] = [];
  lines.push(...(await waterfallOfOneRun(telemetry, options.color)));
  if (answers.length > 0) lines.push('', `answer: ${answers[0]}`);
  lines.push('', `Support desk (${models.mode} models, seed ${options.seed}):`, ...formatSummary(summary), '', ...whereTelemetryWent(telemetry));
  await telemetry.shutdown();
  return { lines, summary };
}

async function waterfallOfOneRun(telemetry: TelemetryHandle, color: boolean): Promise<string[]> {
  const destination = telemetry.destination;
  if (destination.kind !== 'files') {
    return ['(the waterfall view reads the telemetry files; with an OTLP endpoint, open the run in Jaeger)'];
  }
  const runs = groupRuns((await readSpans(destination.traces)).map(toViewSpan));
  const run = chooseRun(runs, { trips: true }) ?? chooseRun(runs, {});
  if (!run) return ['(no trace was written)'];
  const why = run.trips ? `a run that tripped a loop guard (${run.trips})` : 'the latest run';
  return [`Trace ${run.traceId}: ${why}`, ...renderWaterfall(run.spans, { color })];
}

function whereTelemetryWent(telemetry: TelemetryHandle): string[] {
  const destination = telemetry.destination;
  const health = telemetry.health();
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
  const failures = health.exportFailures.traces + health.exportFailures.metrics;
  if (failures > 0 || health.spansDropped > 0) {
    lines.push(
      `warning: ${failures} telemetry export(s) failed and ${health.spansDropped} span(s) were dropped; is the collector at ${destination.kind === 'otlp' ? destination.traces : 'the destination'} reachable?`,
    );
  }
  return lines;
}
