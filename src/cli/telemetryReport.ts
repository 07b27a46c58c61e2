/**
 * What became of the demo's telemetry, in words: how many spans and metric data points were
 * delivered and how many were lost, by cause — the same numbers the health snapshot holds and the
 * otel.sdk.* self-metrics export — and where each signal went (OTLP, the console, nowhere). Never
 * claims delivery that did not happen: a destination that took nothing is reported as such, with no
 * links to a backend that has no data, and a loss names its own signal's target or the folder and the
 * error that stopped the writes, and what to do.
 */
import {
  describeCause,
  totalLost,
  type Destination,
  type OtlpProtocol,
  type SignalHealth,
  type TelemetryHandle,
  type TelemetryHealth,
} from '../telemetry/index.js';

/** Exit status of a demo run whose telemetry was entirely lost (every span it produced). */
export const EXIT_TELEMETRY_LOST = 3;

export function everySpanLost(health: TelemetryHealth): boolean {
  return health.spans.exported === 0 && totalLost(health.spans) > 0;
}

/** `1,234 exported, 56 lost (HTTP 500 50, timeout 6)`. */
export function accountLine(health: SignalHealth): string {
  const lost = totalLost(health);
  const causes = Object.entries(health.lost)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([cause, n]) => `${describeCause(cause)} ${n}`);
  return `${health.exported} exported, ${lost} lost${causes.length > 0 ? ` (${causes.join(', ')})` : ''}`;
}

export function telemetryLines(
  destination: Destination,
  health: TelemetryHealth,
  files: ReturnType<TelemetryHandle['files']>,
): string[] {
  if (destination.kind === 'disabled') return ['Telemetry is disabled (OTEL_SDK_DISABLED=true).'];
  const lines = [`Telemetry: spans ${accountLine(health.spans)}; metric data points ${accountLine(health.metricPoints)}`];
  if (destination.kind === 'files') {
    if (health.spans.exported === 0 && health.metricPoints.exported === 0 && totalLost(health.spans) + totalLost(health.metricPoints) > 0) {
      lines.push(`  nothing could be written to ${destination.directory}/: ${firstReason(health.spans) ?? firstReason(health.metricPoints)}`);
      return lines;
    }
    lines.push(`  written to ${destination.directory}/ (this run: ${files.traces.length} trace file(s), ${files.metrics.length} metric file(s))`);
    for (const file of [...files.traces, ...files.metrics]) lines.push(`    ${file}`);
    if (files.removedTraceFiles > 0) {
      lines.push(`  rotation deleted this run's ${files.removedTraceFiles} oldest trace file(s): it keeps the newest ${files.traces.length} (64 MiB each)`);
    }
    lines.push(`  view a stored run again: npx footprint-otel view ${destination.directory} [--trips] (in a clone of the repository, run npm run build first)`);
    return lines;
  }
  lines.push(signalLine('traces', destination.traces, destination.protocols.traces, health.spans));
  lines.push(signalLine('metrics', destination.metrics, destination.protocols.metrics, health.metricPoints));
  if (health.spans.exported > 0 && otlpTargets(destination.traces).length > 0) {
    lines.push('  Jaeger:  http://localhost:16686 (service footprint-otel-demo; search tag footprint.trip.kinds)');
  }
  if (health.metricPoints.exported > 0 && otlpTargets(destination.metrics).length > 0) {
    lines.push('  Grafana: http://localhost:3000 (folder footprint-otel: the four dashboards)');
  }
  return lines;
}

const EXPORTER_VARIABLE = { traces: 'OTEL_TRACES_EXPORTER', metrics: 'OTEL_METRICS_EXPORTER' } as const;

/** `  traces: sent over OTLP/HTTP to <url>`, `printed to the console`, `not exported (…=none)`, or `nothing was delivered to <url>`. */
function signalLine(signal: 'traces' | 'metrics', targets: string, protocol: OtlpProtocol | undefined, health: SignalHealth): string {
  const variable = EXPORTER_VARIABLE[signal];
  if (targets === 'none') return `  ${signal}: not exported (${variable}=none)`;
  const parts: string[] = [];
  if (targets.split(', ').includes('console')) parts.push(`printed to the console (${variable}=console)`);
  const urls = otlpTargets(targets);
  if (urls.length > 0) {
    const transport = protocol === 'grpc' ? 'OTLP/gRPC' : 'OTLP/HTTP';
    parts.push(health.exported > 0 ? `sent over ${transport} to ${urls.join(', ')}` : `nothing was delivered to ${urls.join(', ')}`);
  }
  return `  ${signal}: ${parts.join('; ')}`;
}

/** A signal's OTLP URLs (its targets without 'console' and 'none'). */
function otlpTargets(targets: string): string[] {
  return targets.split(', ').filter((target) => target !== 'console' && target !== 'none');
}

/** Why the demo shows no waterfall when telemetry does not go to files. */
export function waterfallNote(destination: Extract<Destination, { kind: 'otlp' }>): string {
  if (destination.traces === 'none') return '(no waterfall: traces were not exported, OTEL_TRACES_EXPORTER=none)';
  const urls = otlpTargets(destination.traces);
  if (urls.length === 0) return '(no waterfall: the traces were printed to the console above, OTEL_TRACES_EXPORTER=console)';
  return `(no waterfall: it is drawn from telemetry files, and the traces went to ${urls.join(', ')}; open the run in Jaeger if that collector sends traces there)`;
}

/** stderr warnings: losses by cause, where, with what to do about them. */
export function lossWarnings(destination: Destination, health: TelemetryHealth): string[] {
  const warnings: string[] = [];
  const hint = (signal: 'traces' | 'metrics', signalHealth: SignalHealth): string => {
    if (destination.kind === 'otlp') return `is the collector at ${otlpTargets(destination[signal]).join(', ')} reachable and accepting?`;
    if (destination.kind === 'files') {
      const reason = firstReason(signalHealth);
      return `${reason === undefined ? '' : `${reason}; `}free space in ${destination.directory}/, make it writable, or run from another folder`;
    }
    return '';
  };
  if (totalLost(health.spans) > 0) warnings.push(`warning: telemetry spans lost: ${accountLine(health.spans)}; ${hint('traces', health.spans)}`);
  if (totalLost(health.metricPoints) > 0) {
    warnings.push(`warning: telemetry metric data points lost: ${accountLine(health.metricPoints)}; ${hint('metrics', health.metricPoints)}`);
  }
  if (everySpanLost(health)) warnings.push(`warning: every span of this run was lost; exit status ${EXIT_TELEMETRY_LOST}`);
  return warnings;
}

/** The reason of the largest cause of loss. */
function firstReason(health: SignalHealth): string | undefined {
  const [cause] = Object.entries(health.lost).sort((a, b) => b[1] - a[1])[0] ?? [];
  return cause === undefined ? undefined : health.reasons[cause];
}

/** Where telemetry is flushed to, in words: the folder, the collectors' base URLs, the console, or nowhere. */
export function destinationName(destination: Destination): string {
  if (destination.kind === 'files') return `${destination.directory}/`;
  if (destination.kind === 'disabled') return 'nowhere';
  const targets = [destination.traces, destination.metrics]
    .flatMap((list) => list.split(', '))
    .filter((target) => target !== 'none')
    .map((target) => (target === 'console' ? 'the console' : target.replace(/\/v1\/(traces|metrics)$/, '')));
  return [...new Set(targets)].join(', ') || 'nowhere';
}
