/**
 * `footprint-otel demo` (what `npm start` runs): the support desk over a seeded ticket mix, traced
 * and metered through startTelemetry(), or streamed (--stream: one ticket's answer is written as it
 * arrives, before the rest). Prints the waterfall of one run (the latest that tripped a
 * loop guard, else the latest) read back from this invocation's own telemetry files, a summary of
 * every run, an exact account of the telemetry: spans and data points delivered and lost, by cause,
 * and last the `footprint-otel why` command that walks the drawn run's answer back to its sources.
 *
 * Never loses telemetry silently: a new run starts only when the span queue has room for the spans
 * of the runs in flight (see spanBackpressure.ts), so a load faster than the exporter is slowed, not
 * dropped. Stops promptly: once `stop` fires, no new run starts, runs in flight get IN_FLIGHT_GRACE_MS
 * to end and are then cancelled; telemetry is flushed for at most EXIT_FLUSH_BOUND_MS, and within
 * the stop's budget (windDown.ts; it says so while it waits), and whatever had not gone by then is
 * counted as lost (exit_deadline).
 */
import { MemoryConversationStore } from '../index.js';
import { listSignalFiles, startTelemetry, type TelemetryHandle, type TelemetryHealth } from '../telemetry/index.js';
import { buildDesk } from './desk/desk.js';
import { deskModels } from './desk/providers.js';
import { customTicket, generateTickets, type Ticket } from './desk/tickets.js';
import { demoMetricInterval } from './metricInterval.js';
import { Progress } from './progress.js';
import { SpanBackpressure } from './spanBackpressure.js';
import { streamedRun } from './streamedRun.js';
import { emptySummary, formatSummary, summarize, type DemoSummary } from './summary.js';
import { destinationName, EXIT_TELEMETRY_LOST, everySpanLost, lossWarnings, telemetryLines, waterfallNote } from './telemetryReport.js';
import { chooseRun, collectTrace, indexRuns, type RunSource } from './traces.js';
import type { TerminalLine } from './terminal.js';
import { renderWaterfall } from './waterfall.js';
import { IN_FLIGHT_GRACE_MS, seconds, WindDown } from './windDown.js';

export interface DemoOptions {
  runs: number;
  concurrency: number;
  seed: number;
  ticket?: string;
  /** Stream every run (runner.stream()); the desk's scripted replies then come in chunks. */
  stream: boolean;
  /** Where a single streamed ticket's answer is written as it arrives (without it, it is in the lines). */
  write?: (text: string) => void;
  /** Serve lookup_invoice from an MCP server process (a second service in the same traces). */
  mcp?: boolean;
  /** The billing agent runs away inside its iteration cap (scripted models only). */
  runaway?: boolean;
  /** Show a progress bar (load mode). */
  progress: boolean;
  /** Fires on the first Ctrl-C / SIGTERM: start no more runs, wind down, flush, report. */
  stop?: AbortSignal;
  /** Progress notices while winding down (to stderr). */
  notice?: (line: string) => void;
}

export interface DemoResult {
  /** For stdout, through terminal.ts (which escapes the names, messages and answer they hold). */
  lines: TerminalLine[];
  /** Telemetry trouble (lost spans or data points, by cause) and unreadable trace lines, for stderr. */
  warnings: string[];
  summary: DemoSummary;
  health: TelemetryHealth;
  /** 0, or EXIT_TELEMETRY_LOST when every span was lost (an interrupted run's status is main's). */
  exitCode: number;
}

export { EXIT_FLUSH_BOUND_MS, IN_FLIGHT_GRACE_MS } from './windDown.js';

/**
 * The OTel defaults (a queue of 2048 spans, exported 512 at a time, one export at a time) cannot keep
 * up with the desk run flat out: thousands of spans a second, while each export takes several turns
 * of a busy event loop. Bigger batches keep the exporter ahead of the load, and the backpressure
 * below covers the rest; OTEL_BSP_* still win when set.
 */
const DEMO_SPAN_QUEUE = { maxQueueSize: 16_384, maxExportBatchSize: 2_048 };


/**
 * One OTLP export (retries included) gives up after 3 s unless OTEL_EXPORTER_OTLP_TIMEOUT says
 * otherwise: well inside EXIT_FLUSH_BOUND_MS, so with a dead or hanging collector the final export
 * ends with its real cause (refused, timeout) before the demo stops waiting, instead of being cut
 * off unexplained. (File writes have their own deadline.)
 */
const DEMO_EXPORT_TIMEOUT_MS = 3_000;

export async function demoCommand(options: DemoOptions): Promise<DemoResult> {
  const notice = options.notice ?? (() => undefined);
  // Before telemetry starts: a desk that cannot be built (--runaway on real models) starts nothing.
  const models = deskModels(options.seed, process.env, { runaway: options.runaway === true, stream: options.stream });
  const telemetry = startTelemetry({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'footprint-otel-demo',
    maxQueueSize: process.env.OTEL_BSP_MAX_QUEUE_SIZE ? undefined : DEMO_SPAN_QUEUE.maxQueueSize,
    maxExportBatchSize: process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE ? undefined : DEMO_SPAN_QUEUE.maxExportBatchSize,
    metricExportIntervalMs: demoMetricInterval(),
    exportTimeoutMs: process.env.OTEL_EXPORTER_OTLP_TIMEOUT ? undefined : DEMO_EXPORT_TIMEOUT_MS,
    handleExit: false,
  });
  const invoices = options.mcp ? await (await import('./desk/mcpDesk.js')).connectDeskTools() : undefined;
  const desk = buildDesk(models, invoices?.tools(['lookup_invoice'])[0]);
  const summary = emptySummary();
  const stopSummary = summarize(desk, summary);
  const tickets: Ticket[] = options.ticket ? [customTicket(options.ticket)] : generateTickets(options.runs, options.seed);
  const live = options.stream && tickets.length === 1 ? options.write : undefined;
  const progress = options.progress ? new Progress(tickets.length) : undefined;
  // one controller per run in flight (a shared signal would collect a listener per model call)
  const inFlight = new Set<AbortController>();
  const stop = options.stop ?? new AbortController().signal;
  let graceTimer: NodeJS.Timeout | undefined;
  const windDown = new WindDown();
  const onStop = () => {
    windDown.stopped();
    graceTimer = setTimeout(() => {
      for (const run of inFlight) run.abort(new Error('cancelled: the demo was stopped'));
    }, IN_FLIGHT_GRACE_MS);
  };
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });

  const backpressure = new SpanBackpressure(telemetry);
  const answers: string[] = [];
  // Each ticket is a conversation (its id the conversation id); threads live for this demo only.
  const conversationStore = new MemoryConversationStore();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < tickets.length && !stop.aborted) {
      await backpressure.waitForRoom(() => inFlight.size, stop);
      if (stop.aborted || next >= tickets.length) break;
      const ticket = tickets[next++]!;
      const conversation = { conversationId: ticket.id, conversationStore };
      const run = new AbortController();
      inFlight.add(run);
      try {
        const out = options.stream
          ? await streamedRun(desk, ticket.text, { ...conversation, signal: run.signal }, live)
          : await desk.run(ticket.text, { ...conversation, signal: run.signal });
        if (out.stopReason !== 'paused' && tickets.length === 1 && !live) answers.push(out.text);
      } catch {
        // counted by the summary (cancelled runs as errors); the trace says why
      } finally {
        inFlight.delete(run);
        backpressure.runFinished();
      }
      progress?.update(++done, `$${summary.costUsd.toFixed(4)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, tickets.length) }, worker));
  stopSummary();
  // closing stops the MCP server, which flushes its own telemetry on the way out
  await invoices?.close();
  clearTimeout(graceTimer);
  stop.removeEventListener('abort', onStop);

  const flushBoundMs = windDown.flushBoundMs();
  if (telemetry.destination.kind !== 'disabled') {
    notice(`flushing telemetry to ${destinationName(telemetry.destination)}, up to ${seconds(flushBoundMs)}`);
  }
  const flushed = await withinBound(telemetry.shutdown(), flushBoundMs);
  const health = flushed ? telemetry.health() : telemetry.abandonedHealth();

  const lines: TerminalLine[] = [];
  const warnings: string[] = [];
  const drawn = windDown.pastDeadline() ? { lines: [stoppedWaterfallNote(telemetry)] } : await waterfallOfOneRun(telemetry, warnings, options.mcp === true);
  lines.push(...drawn.lines);
  if (answers.length > 0) lines.push('', `answer: ${answers[0]}`);
  lines.push('', `Support desk (${deskMode(models.mode, options)}):`, ...formatSummary(summary));
  if (stop.aborted) lines.push(`stopped: ${done} of ${tickets.length} runs done, ${tickets.length - done} not started`);
  const files = telemetry.files();
  lines.push('', ...telemetryLines(telemetry.destination, health, files));
  warnings.push(...lossWarnings(telemetry.destination, health));
  if (files.removedTraceFiles > 0) {
    warnings.push(`warning: rotation deleted ${files.removedTraceFiles} of this run's trace file(s); their runs are no longer on disk`);
  }
  if (!flushed) {
    warnings.push(`warning: telemetry was not fully flushed within ${seconds(flushBoundMs)}; the rest is counted as lost`);
  }
  if (drawn.runId !== undefined && telemetry.destination.kind === 'files') {
    lines.push('', `why did run ${drawn.runId} answer that: npx footprint-otel why ${telemetry.destination.directory} --run ${drawn.runId}`);
  }
  return { lines, warnings, summary, health, exitCode: everySpanLost(health) ? EXIT_TELEMETRY_LOST : 0 };
}

async function withinBound(work: Promise<void>, boundMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), boundMs);
  });
  try {
    return await Promise.race([work.then(() => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** In place of the waterfall when the stop's budget is spent: reading the trace files back would take longer. */
function stoppedWaterfallNote(telemetry: TelemetryHandle): string {
  const where = telemetry.destination.kind === 'files' ? ` npx footprint-otel view ${telemetry.destination.directory} draws it.` : '';
  return `(no waterfall: the stop's deadline passed before the trace files could be read back.${where})`;
}

/** The waterfall of one of this invocation's runs, read back from its own trace files, and that run's id. */
async function waterfallOfOneRun(telemetry: TelemetryHandle, warnings: string[], withServer: boolean): Promise<{ lines: TerminalLine[]; runId?: string }> {
  const destination = telemetry.destination;
  if (destination.kind === 'disabled') return { lines: ['(telemetry is disabled, so there is no trace to show)'] };
  if (destination.kind !== 'files') return { lines: [waterfallNote(destination)] };
  const own = telemetry.files().traces;
  // with --mcp the desk-tools server wrote its own session files in the same folder, started after ours
  const files = withServer && own.length > 0 ? (await listSignalFiles(destination.directory, 'traces')).filter((file) => file >= own[0]!) : own;
  const source: RunSource = {
    path: files,
    onProblem: (problem) => warnings.push(`warning: ${problem.file}:${problem.line}: ${problem.reason}`),
  };
  const runs = await indexRuns(source);
  const run = chooseRun(runs, { trips: true }) ?? chooseRun(runs, {});
  if (!run) return { lines: ['(no trace was written)'] };
  const why = run.trips ? `a run that tripped a loop guard (${run.trips})` : 'the latest run';
  const { spans, total } = await collectTrace({ ...source, onProblem: () => undefined }, run.traceId);
  return { lines: [`Trace ${run.traceId}: ${why}`, ...renderWaterfall(spans, { total })], ...(run.root?.runId === undefined ? {} : { runId: run.root.runId }) };
}

/**
 * The summary's heading: the models, the seed, and what --stream and --mcp changed, so their effect
 * shows in every run's summary, not only in a single ticket's output.
 */
function deskMode(models: string, options: Pick<DemoOptions, 'seed' | 'stream' | 'mcp'>): string {
  const parts = [`${models} models`, `seed ${options.seed}`];
  if (options.stream) parts.push('every run streamed');
  if (options.mcp) parts.push('lookup_invoice over MCP (stdio)');
  return parts.join(', ');
}
