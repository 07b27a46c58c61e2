/**
 * Running the footprint-otel CLI as a user would — a child process running the CLI compiled from the
 * sources (test/support/compiled.ts; test/package runs the installed bin) under plain node, in a
 * temporary working directory of its own, with an environment cleared of OTEL_* settings and model
 * API keys — and reading back what it printed and what it left in ./telemetry: the waterfall parsed
 * into lines, the span tree a waterfall should show, and the last cumulative export of each metric
 * series in the metrics files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listSignalFiles, type FileSpan, type FileSpanEvent } from '../../src/telemetry/index.js';
import { compiled } from './compiled.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = compiled('src/cli/main.ts');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** Added to the cleaned environment. */
  env?: Record<string, string>;
  /** Called on every chunk of output with all output so far (to signal the child at the right moment). */
  onOutput?: (output: { stdout: string; stderr: string }, child: ChildProcess) => void;
}

/** The test process's environment without anything that would change what the CLI does. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(OTEL_|OPENAI_|ANTHROPIC_|FOOTPRINT_)/.test(key) || key === 'NO_COLOR' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command to its end (asynchronously, so a receiver in this process keeps answering). */
export function run(command: string, args: string[], options: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      options.onOutput?.({ stdout, stderr }, child);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      options.onOutput?.({ stdout, stderr }, child);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `footprint-otel ...args` in `cwd`, compiled from the sources. */
export function cli(args: string[], options: RunOptions): Promise<CliResult> {
  return run(process.execPath, [CLI, ...args], options);
}

/** A fresh temporary directory, and a function that removes it. */
export function tempDir(name: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `footprint-cli-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// ── the waterfall ───────────────────────────────────────────────────────────────────────────────

/** The events the waterfall shows under their span: routing, hops, trips, escalations, refusals, limits, lifecycle. */
export const SHOWN_EVENTS = new Set([
  'footprint.agent.next_step',
  'footprint.composition.route_decided',
  'footprint.skill.hop',
  'footprint.loop_guard.trip',
  'footprint.skill.rejected',
  'footprint.skill.escalated',
  'footprint.agent.iteration_cap',
  'footprint.run.paused',
  'footprint.run.resumed',
  'footprint.run.failed',
]);

export type WaterfallLine =
  | { kind: 'span'; depth: number; name: string; cost?: string; error: boolean }
  /** An event line, one level deeper than its span. */
  | { kind: 'event'; depth: number; name: string };

/** Width of the label column (indentation + span name) in a waterfall line. */
const LABEL_WIDTH = 44;

/** The waterfall lines of the CLI's output, from its header line up to the first blank line. */
export function waterfallBlock(stdout: string, header: RegExp): { traceId: string; lines: string[] } {
  const all = stdout.split('\n');
  const start = all.findIndex((line) => header.test(line));
  if (start < 0) throw new Error(`no line matching ${header} in:\n${stdout}`);
  const traceId = header.exec(all[start]!)![1]!;
  const end = all.findIndex((line, i) => i > start && line.trim() === '');
  return { traceId, lines: all.slice(start + 1, end < 0 ? undefined : end) };
}

export function parseWaterfall(lines: string[]): WaterfallLine[] {
  return lines.map((line) => {
    const event = /^( *)• (\S+)/.exec(line);
    if (event) return { kind: 'event', depth: event[1]!.length / 2, name: `footprint.${event[2]}` };
    const label = line.slice(0, LABEL_WIDTH).trimEnd();
    const depth = (label.length - label.trimStart().length) / 2;
    const rest = line.slice(LABEL_WIDTH);
    const cost = /\$(\d+\.\d{6})/.exec(rest)?.[1];
    return { kind: 'span', depth, name: label.trimStart(), ...(cost ? { cost } : {}), error: rest.includes('ERROR') };
  });
}

/**
 * What the waterfall of one trace must show: every span once, depth-first from the root, children in
 * start order (spans starting together keep their order in the file), each followed by its shown
 * events in order, one level deeper.
 */
export function expectedWaterfall(spans: FileSpan[], traceId: string): WaterfallLine[] {
  const trace = spans.filter((s) => s.traceId === traceId);
  const ids = new Set(trace.map((s) => s.spanId));
  const children = new Map<string | undefined, FileSpan[]>();
  for (const span of trace) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  for (const list of children.values()) list.sort((a, b) => a.startMs - b.startMs);
  const out: WaterfallLine[] = [];
  const visit = (span: FileSpan, depth: number) => {
    const cost = span.attributes['footprint.cost.usd'];
    out.push({
      kind: 'span',
      depth,
      name: span.name,
      ...(typeof cost === 'number' ? { cost: cost.toFixed(6) } : {}),
      error: span.status.code === 2,
    });
    for (const event of span.events) if (SHOWN_EVENTS.has(event.name)) out.push({ kind: 'event', depth: depth + 1, name: event.name });
    for (const child of children.get(span.spanId) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(undefined) ?? []) visit(root, 0);
  return out;
}

/** A payload field of a span event: named under the event (footprint.loop_guard.trip.kind), or bare. */
export function eventField(event: FileSpanEvent, field: string): unknown {
  return event.attributes[`${event.name}.${field}`] ?? event.attributes[field];
}

/** The root span of each trace, by trace id. */
/**
 * Traces with a root span whose every span's parent is in the trace (whole), and traces that are not:
 * a root with orphans under it, or no root at all (fragments).
 */
export function traceWholeness(spans: FileSpan[]): { whole: string[]; broken: string[] } {
  const byTrace = new Map<string, FileSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId) ?? [];
    list.push(span);
    byTrace.set(span.traceId, list);
  }
  const whole: string[] = [];
  const broken: string[] = [];
  for (const [traceId, list] of byTrace) {
    const ids = new Set(list.map((s) => s.spanId));
    const roots = list.filter((s) => s.parentSpanId === undefined);
    const orphans = list.filter((s) => s.parentSpanId !== undefined && !ids.has(s.parentSpanId));
    (roots.length === 1 && orphans.length === 0 ? whole : broken).push(traceId);
  }
  return { whole, broken };
}

export function rootsByTrace(spans: FileSpan[]): Map<string, FileSpan> {
  const ids = new Set(spans.map((s) => `${s.traceId}/${s.spanId}`));
  const roots = new Map<string, FileSpan>();
  for (const span of spans) {
    if (!span.parentSpanId || !ids.has(`${span.traceId}/${span.parentSpanId}`)) roots.set(span.traceId, span);
  }
  return roots;
}

// ── the summary ─────────────────────────────────────────────────────────────────────────────────

export interface PrintedSummary {
  runs: number;
  outcomes: Record<string, number>;
  llmCalls: number;
  tokens: { input: number; output: number };
  costUsd: number;
  trips: Record<string, number>;
  escalations: number;
  rejections: number;
  toolFailures: number;
}

export function parseSummary(stdout: string): PrintedSummary {
  const match = (re: RegExp) => {
    const m = re.exec(stdout);
    if (!m) throw new Error(`no summary line matching ${re} in:\n${stdout}`);
    return m;
  };
  const runs = match(/^runs: (\d+) {3}outcomes: (.*)$/m);
  const cost = match(/^LLM calls: (\d+) {3}total cost: \$(\d+\.\d+)$/m);
  const tokens = match(/^tokens: input (\d+), output (\d+)$/m);
  const trips = match(/^trips: ping_pong (\d+), rejected_cap (\d+) {3}escalations: (\d+) {3}skill rejections: (\d+) {3}tool failures: (\d+)$/m);
  const outcomes: Record<string, number> = {};
  for (const part of runs[2]!.split(', ').filter(Boolean)) {
    const [name, count] = part.split(' ');
    outcomes[name!] = Number(count);
  }
  return {
    runs: Number(runs[1]),
    outcomes,
    llmCalls: Number(cost[1]),
    tokens: { input: Number(tokens[1]), output: Number(tokens[2]) },
    costUsd: Number(cost[2]),
    trips: { ping_pong: Number(trips[1]), rejected_cap: Number(trips[2]) },
    escalations: Number(trips[3]),
    rejections: Number(trips[4]),
    toolFailures: Number(trips[5]),
  };
}

// ── metrics files ────────────────────────────────────────────────────────────────────────────────

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}

interface JsonDataPoint {
  attributes?: JsonKeyValue[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
}

interface JsonMetricsRequest {
  resourceMetrics?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeMetrics?: { scope?: { name?: string }; metrics?: { name: string; sum?: { dataPoints?: JsonDataPoint[] }; histogram?: { dataPoints?: JsonDataPoint[] } }[] }[];
  }[];
}

export interface MetricPoint {
  name: string;
  attributes: Record<string, string | number | boolean>;
  /** A counter's value, a histogram's count. */
  value: number;
}

/**
 * The last exported point of every series in the metrics files of a telemetry folder. Exports are
 * cumulative, so the last line that carries a series holds its total; a series is its resource
 * (each invocation has its own service.instance.id), scope, name and attributes.
 */
export async function lastMetricPoints(folder: string): Promise<MetricPoint[]> {
  const latest = new Map<string, MetricPoint>();
  const lines = (await listSignalFiles(folder, 'metrics')).flatMap((file) => readFileSync(file, 'utf8').split('\n'));
  for (const line of lines) {
    if (line.trim() === '') continue;
    const request = JSON.parse(line) as JsonMetricsRequest;
    for (const rm of request.resourceMetrics ?? []) {
      const resource = JSON.stringify(attributesOf(rm.resource?.attributes));
      for (const sm of rm.scopeMetrics ?? []) {
        for (const metric of sm.metrics ?? []) {
          const points = [...(metric.sum?.dataPoints ?? []), ...(metric.histogram?.dataPoints ?? [])];
          for (const point of points) {
            const attributes = attributesOf(point.attributes);
            const key = JSON.stringify([resource, sm.scope?.name, metric.name, Object.entries(attributes).sort()]);
            const value = Number(point.asInt ?? point.asDouble ?? point.count ?? 0);
            latest.set(key, { name: metric.name, attributes, value });
          }
        }
      }
    }
  }
  return [...latest.values()];
}

/** The total of a metric's last points, optionally only those whose attributes include `where`. */
export function metricTotal(points: MetricPoint[], name: string, where: Record<string, string> = {}): number {
  return points
    .filter((p) => p.name === name && Object.entries(where).every(([k, v]) => p.attributes[k] === v))
    .reduce((sum, p) => sum + p.value, 0);
}

function attributesOf(list: JsonKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) out[key] = value.stringValue ?? value.boolValue ?? Number(value.intValue ?? value.doubleValue);
  return out;
}
