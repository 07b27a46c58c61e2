/** Command-line parsing for the footprint-otel bin: strict flags, clear usage errors (exit code 2). */
import { parseArgs } from 'node:util';
import { numberProblem } from '../runtime/index.js';
import { DEFAULT_FILE_DIRECTORY } from '../telemetry/index.js';

export const USAGE = `Usage:
  footprint-otel [demo] [--runs N] [--concurrency C] [--seed S] [--ticket "text"] [--stream] [--mcp] [--runaway] [--no-color]
      Run the support desk over a seeded ticket mix (12 tickets by default; --ticket runs one of
      your own): the waterfall of one run, then a summary; with --runs, a progress bar too.
      --stream streams every run: one ticket's answer is printed as it arrives, chunk by chunk,
      and the summary gives the p50 / p95 time to first chunk.
      --runaway: the billing agent runs away inside its iteration cap (8 invoice look-ups per
      model call, no loop guard trips): what the FootprintRunawayAgent alert is for (scripted models only).
      Telemetry goes to OTLP-JSON files under ./telemetry/ (files of its own per invocation,
      rotated at 64 MiB), or over OTLP once any of OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER,
      OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is set (OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf, the
      default, http/json or grpc).
      Ctrl-C / SIGTERM: no new runs, runs in flight end or are cancelled, telemetry is flushed
      (bounded), then a summary; a second one exits at once. --mcp serves the billing agent's
      lookup_invoice from an MCP server process the demo starts (a second service.name, one trace).
  footprint-otel view [file|dir] [--trace ID] [--trips] [--list] [--no-color]
      Print the waterfall of a stored run (from ./telemetry unless a file or folder is named): the
      latest, the one with --trace ID, or the latest with a loop-guard trip (--trips). --list lists
      the stored runs (and trace fragments) instead.
  footprint-otel why [file|dir] [--jaeger URL] [--trace ID | --run RUN_ID] [--span SPAN_ID] [--json]
      Why a run answered what it did: from the run's answer (or --span) back along the lineage
      links to every part of its input (tool results, the hop that set the skill, earlier answers,
      hand-offs, the run's input), as a tree; --json prints the same slice as a DAG. Reads
      ./telemetry unless a file or folder is named, or Jaeger's query API (--jaeger, with --trace
      or --run). The newest run unless --trace (an id or prefix) or --run names one. Marks what it
      cannot see: a producer not in these files, folded links, a cycle. See docs/why.md.
  footprint-otel --help

Exit status: 0 done; 1 error; 2 usage error; 3 the demo ran but every span of its telemetry was
lost; 130 / 143 the demo was stopped by SIGINT / SIGTERM.`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure the user can act on (an unreadable trace file): reported as one line, exit code 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

export type Command =
  | { kind: 'help' }
  | { kind: 'demo'; runs: number; concurrency: number; seed: number; ticket?: string; stream: boolean; runaway: boolean; color: boolean; runsGiven: boolean; mcp: boolean }
  | { kind: 'view'; path: string; trace?: string; trips: boolean; list: boolean; color: boolean }
  | { kind: 'why'; path: string; jaeger?: string; trace?: string; run?: string; span?: string; json: boolean; color: boolean };

export function parseCommand(argv: string[], isTTY: boolean): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: withNumbersJoined(argv),
      allowPositionals: true,
      strict: true,
      options: {
        runs: { type: 'string' },
        concurrency: { type: 'string' },
        seed: { type: 'string' },
        ticket: { type: 'string' },
        stream: { type: 'boolean', default: false },
        runaway: { type: 'boolean', default: false },
        trace: { type: 'string' },
        trips: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        mcp: { type: 'boolean', default: false },
        jaeger: { type: 'string' },
        run: { type: 'string' },
        span: { type: 'string' },
        json: { type: 'boolean', default: false },
        'no-color': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const color = isTTY && !values['no-color'] && !process.env.NO_COLOR;
  const [command = 'demo', ...rest] = positionals;
  if (command !== 'why') {
    for (const flag of ['jaeger', 'run', 'span', 'json'] as const) {
      if (values[flag] !== undefined && values[flag] !== false) throw new UsageError(`--${flag} is a why flag, not a ${command} flag`);
    }
  }
  if (command === 'why') return whyCommandOf(rest, values, color);
  if (command === 'view') {
    if (rest.length > 1) throw new UsageError('view takes one file or directory (./telemetry when none is named)');
    for (const flag of ['runs', 'concurrency', 'seed', 'ticket'] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} is a demo flag, not a view flag`);
    }
    if (values.stream) throw new UsageError('--stream is a demo flag, not a view flag');
    if (values.mcp) throw new UsageError('--mcp is a demo flag, not a view flag');
    if (values.runaway) throw new UsageError('--runaway is a demo flag, not a view flag');
    if (values.trace !== undefined && values.trace.trim() === '') throw new UsageError('--trace needs a trace id (or a prefix of one)');
    return { kind: 'view', path: rest[0] ?? DEFAULT_FILE_DIRECTORY, trace: values.trace, trips: values.trips, list: values.list, color };
  }
  if (command !== 'demo') throw new UsageError(`unknown command "${command}"`);
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  for (const flag of ['trace', 'trips', 'list'] as const) {
    if (values[flag] !== undefined && values[flag] !== false) throw new UsageError(`--${flag} is a view flag, not a demo flag`);
  }
  const runs = count('runs', values.runs, 1, 1_000_000);
  const concurrency = count('concurrency', values.concurrency, 1, 1_000);
  const seed = count('seed', values.seed, 42, 2 ** 31 - 1, 0);
  if (values.ticket !== undefined && values.ticket.trim() === '') throw new UsageError('--ticket needs some text');
  if (values.ticket !== undefined && values.runs !== undefined) throw new UsageError('--ticket runs one ticket; drop --runs');
  return { kind: 'demo', runs, concurrency, seed, ticket: values.ticket, stream: values.stream, runaway: values.runaway, color, runsGiven: values.runs !== undefined, mcp: values.mcp };
}

function whyCommandOf(
  rest: string[],
  values: { [flag: string]: string | boolean | undefined },
  color: boolean,
): Command {
  if (rest.length > 1) throw new UsageError('why takes one file or directory (./telemetry when none is named)');
  for (const flag of ['runs', 'concurrency', 'seed', 'ticket', 'stream', 'mcp', 'runaway', 'trips', 'list'] as const) {
    if (values[flag] !== undefined && values[flag] !== false) throw new UsageError(`--${flag} is not a why flag`);
  }
  const text = (flag: 'jaeger' | 'trace' | 'run' | 'span', what: string): string | undefined => {
    const value = values[flag];
    if (typeof value !== 'string') return undefined;
    if (value.trim() === '') throw new UsageError(`--${flag} needs ${what}`);
    return value.trim();
  };
  const trace = text('trace', 'a trace id (or a prefix of one)');
  const run = text('run', 'a run id (footprint.run.id)');
  if (trace !== undefined && run !== undefined) throw new UsageError('--trace and --run both name the run; give one');
  const jaeger = text('jaeger', 'the URL of Jaeger\'s query API, e.g. http://127.0.0.1:16686');
  if (jaeger !== undefined && rest.length > 0) throw new UsageError('why reads files or --jaeger, not both');
  const span = text('span', 'a span id');
  return {
    kind: 'why',
    path: rest[0] ?? DEFAULT_FILE_DIRECTORY,
    ...(jaeger === undefined ? {} : { jaeger }),
    ...(trace === undefined ? {} : { trace }),
    ...(run === undefined ? {} : { run }),
    ...(span === undefined ? {} : { span }),
    json: values.json === true,
    color,
  };
}

const NUMERIC_FLAGS = ['--runs', '--concurrency', '--seed'];

/**
 * `--runs -5` as `--runs=-5`: parseArgs takes a value starting with "-" for a flag ("argument is
 * ambiguous"), so a negative number would never reach the range check that names what the flag takes.
 */
function withNumbersJoined(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (NUMERIC_FLAGS.includes(argv[i]!) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else {
      out.push(argv[i]!);
    }
  }
  return out;
}

/** A numeric flag, checked by the runtime's one rule for numeric settings (run/settings.ts). */
function count(flag: string, value: string | undefined, fallback: number, max: number, min = 1): number {
  if (value === undefined) return fallback;
  const number = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value.trim()) ? Number(value) : value;
  const problem = numberProblem(`--${flag}`, number, { min, max });
  if (problem !== undefined) throw new UsageError(problem);
  return number as number;
}
