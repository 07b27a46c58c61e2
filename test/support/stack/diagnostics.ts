// What a failing real-stack test prints so that the failure explains itself: for each service named,
// its last log lines and, for the collectors and Jaeger, their own telemetry (the :8888 Prometheus
// page: spans accepted, refused, sent and failed per component, exporter queue size and capacity,
// the tail sampler's decisions). A collector that drops a batch says so only there and in its log.
import type { Program } from '../backends.js';
import { hostAddress, LISTENERS, type PortTable, type StackService } from './stack.js';

/** The self-telemetry port every collector and Jaeger listens on (their `service.telemetry`). */
const TELEMETRY_PORT = 8888;
const LOG_LINES = 60;

/** The series of a `/metrics` page about the flow of data (histogram buckets left out). */
function flowSeries(page: string): string[] {
  return page.split('\n').filter((line) => /^otelcol_(receiver|exporter|processor)_/.test(line) && !/_bucket\{/.test(line));
}

async function telemetryPage(ports: PortTable, service: StackService): Promise<string> {
  const res = await fetch(`http://${hostAddress(ports, service, TELEMETRY_PORT)}/metrics`, { signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`GET /metrics of ${service} -> ${res.status}`);
  return res.text();
}

async function telemetry(ports: PortTable, service: StackService): Promise<string[]> {
  if (!LISTENERS[service].includes(TELEMETRY_PORT)) return [];
  try {
    return flowSeries(await telemetryPage(ports, service));
  } catch (err) {
    return [`(its /metrics did not answer: ${(err as Error).message})`];
  }
}

/**
 * The sum of a collector's (or Jaeger's) own counter `name` over its series whose labels include
 * `labels`; 0 when it has none (a counter appears once it counted something).
 */
export async function selfCount(ports: PortTable, service: StackService, name: string, labels: Record<string, string> = {}): Promise<number> {
  let sum = 0;
  for (const line of flowSeries(await telemetryPage(ports, service))) {
    const series = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (series?.[1] !== name) continue;
    const own = Object.fromEntries([...(series[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => own[k] === v)) sum += Number(series[3]);
  }
  return sum;
}

/**
 * The report on `programs` (a label each, e.g. 'otel-collector (before the kill)'): their last log
 * lines, and the telemetry of those still running.
 */
export async function stackReport(ports: PortTable, programs: Array<{ label: string; service: StackService; program: Program }>): Promise<string> {
  const sections: string[] = [];
  for (const { label, service, program } of programs) {
    const running = program.exitStatus() === undefined;
    const series = running ? await telemetry(ports, service) : [];
    const log = program.logs().split('\n').slice(-LOG_LINES);
    sections.push(
      [
        `--- ${label}: ${running ? 'running' : `exited (${String(program.exitStatus())})`} ---`,
        ...(series.length > 0 ? ['telemetry:', ...series.map((s) => `  ${s}`)] : []),
        `last ${log.length} log lines:`,
        ...log.map((l) => `  ${l}`),
      ].join('\n'),
    );
  }
  return sections.join('\n');
}
