// What the real-stack tests drive and read: `footprint-otel demo` as a user runs it (a child process,
// OTLP to an endpoint), Jaeger's HTTP query API, and the demo's printed summary as numbers.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DemoSummary } from '../../../src/cli/summary.js';
import { compiled } from '../compiled.js';

/** The printed summary parsed back: the same fields src/cli/summary.ts counts (of streamed calls' first chunks it prints only percentiles). */
export type DemoSummaryNumbers = Omit<DemoSummary, 'firstChunksMs'>;

/** The numbers of the demo's summary block (src/cli/summary.ts's format). */
export function parseDemoSummary(stdout: string): DemoSummaryNumbers {
  const need = (re: RegExp) => {
    const m = re.exec(stdout);
    if (!m) throw new Error(`demo summary has no ${re}:\n${stdout.slice(-2_000)}`);
    return m;
  };
  const runs = need(/^runs: (\d+)\s+outcomes: (.*)$/m);
  const calls = need(/^LLM calls: (\d+)\s+total cost: \$([\d.]+)$/m);
  const tokens = need(/^tokens: input (\d+), output (\d+)$/m);
  const trips = need(/^trips: (.*?)\s{2,}escalations: (\d+)\s+skill rejections: (\d+)\s+tool failures: (\d+)$/m);
  /** The `    key   $0.000123` rows under a `  cost by <what>:` heading. */
  const table = (heading: string) => {
    const start = stdout.indexOf(`  cost by ${heading}:\n`);
    if (start < 0) throw new Error(`demo summary has no cost by ${heading}`);
    const rows: Record<string, number> = {};
    for (const line of stdout.slice(start).split('\n').slice(1)) {
      const row = /^ {4}(\S+)\s+\$([\d.]+)$/.exec(line);
      if (!row) break;
      rows[row[1]!] = Number(row[2]);
    }
    return rows;
  };
  const pairs = (text: string) => Object.fromEntries(text.split(', ').map((p) => p.split(' ')).map(([k, v]) => [k!, Number(v)]));
  return {
    runs: Number(runs[1]),
    outcomes: pairs(runs[2]!),
    llmCalls: Number(calls[1]),
    tokens: { input: Number(tokens[1]), output: Number(tokens[2]) },
    costUsd: Number(calls[2]),
    // The demo prints the empty route (a composition's own calls, e.g. the swarm's router) as "":
    // their metrics carry no footprint.route, which PromQL groups as the empty value.
    costByRoute: Object.fromEntries(Object.entries(table('route')).map(([route, usd]) => [route === '""' ? '' : route, usd])),
    costByModel: table('model'),
    trips: pairs(trips[1]!),
    escalations: Number(trips[2]),
    rejections: Number(trips[3]),
    toolFailures: Number(trips[4]),
  };
}

export interface DemoRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  summary: DemoSummaryNumbers;
}

export interface DemoOptions {
  /** The demo's own flags, e.g. ['--runs', '300', '--concurrency', '8']. */
  args: string[];
  env: Record<string, string>;
  /** Called once the process started (for fault tests). */
  onStart?: () => void;
  /** Working folder to run in and keep (its telemetry/ is wanted); default: a scratch folder removed after. */
  cwd?: string;
}

/** The CLI compiled from the sources (test/support/compiled.ts), as the CLI tests run it: no build needed. */
const CLI = [compiled('src/cli/main.ts')];

/** Runs `footprint-otel demo` in a scratch folder (so no telemetry/ lands in the repo). */
export function runDemo(opts: DemoOptions): Promise<DemoRun> {
  const cwd = opts.cwd ?? mkdtempSync(path.join(os.tmpdir(), 'footprint-demo-'));
  const child = spawn(process.execPath, [...CLI, 'demo', '--no-color', ...opts.args], {
    cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  opts.onStart?.();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      if (opts.cwd === undefined) rmSync(cwd, { recursive: true, force: true });
      try {
        resolve({ exitCode, stdout, stderr, summary: parseDemoSummary(stdout) });
      } catch (err) {
        reject(new Error(`${(err as Error).message}\nstderr:\n${stderr.slice(-2_000)}`));
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Jaeger's HTTP query API (/api/traces, the one its UI uses)

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  tags: Array<{ key: string; value: unknown }>;
  logs: Array<{ fields: Array<{ key: string; value: unknown }> }>;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
}

export interface JaegerClient {
  url: string;
  /** Every trace of `service` matching `tags` (exact values), whole. */
  search(service: string, tags?: Record<string, string>): Promise<JaegerTrace[]>;
  /** One trace by id, or undefined when Jaeger has none. */
  trace(traceId: string): Promise<JaegerTrace | undefined>;
  get<T>(pathAndQuery: string): Promise<T>;
}

export function jaegerClient(url: string): JaegerClient {
  const get = async <T>(pathAndQuery: string): Promise<T> => {
    const res = await fetch(url + pathAndQuery, { signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    if (!res.ok) throw Object.assign(new Error(`GET ${pathAndQuery} -> ${res.status}: ${text.slice(0, 300)}`), { status: res.status });
    return JSON.parse(text) as T;
  };
  return {
    url,
    get,
    async search(service, tags) {
      const params = new URLSearchParams({ service, limit: '100000', lookback: '1h' });
      if (tags) params.set('tags', JSON.stringify(tags));
      return (await get<{ data: JaegerTrace[] | null }>(`/api/traces?${params}`)).data ?? [];
    },
    async trace(traceId) {
      try {
        return (await get<{ data: JaegerTrace[] }>(`/api/traces/${traceId}`)).data[0];
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    },
  };
}

/** The names of a Jaeger span's events (its logs' `event` field). */
export function jaegerEventNames(span: JaegerSpan): string[] {
  return span.logs.flatMap((l) => l.fields.filter((f) => f.key === 'event').map((f) => String(f.value)));
}
