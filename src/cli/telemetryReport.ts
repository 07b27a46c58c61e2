/**
 * What became of the demo's telemetry, in words: how many spans and metric data points were
 * delivered and how many were lost, by cause — the same numbers the health snapshot holds and the
 * otel.sdk.* self-metrics export — and where it went. Never claims delivery that did not happen: a
 * destination that took nothing is reported as such, with no links to a backend that has no data.
 */
import { describeCause, totalLost, type Destination, type SignalHealth, type TelemetryHandle, type TelemetryHealth } from '../telemetry/index.js';

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
    lines.push(`  written to ${destination.directory}/ (this run: ${files.traces.length} trace file(s), ${files.metrics.length} metric file(s))`);
    for (const file of [...files.traces, ...files.metrics]) lines.push(`    ${file}`);
    if (files.removedTraceFiles > 0) {
      lines.push(`  rotation deleted this run's ${files.removedTraceFiles} oldest trace file(s): it keeps the newest ${files.traces.length} (64 MiB each)`);
    }
    lines.push(`  view a stored run again: npx footprint-otel view ${destination.directory} [--trips]`);
    return lines;
  }
  if (health.spans.exported === 0 && health.metricPoints.exported === 0) {
    lines.push(`  nothing was delivered to ${destination.traces} or ${destination.metrics}`);
    return lines;
  }
  const transport = destination.protocols.traces === 'grpc' || destination.protocols.metrics === 'grpc' ? 'OTLP' : 'OTLP/HTTP';
  lines.push(`  sent over ${transport}: ${destination.traces}, ${destination.metrics}`);
  if (health.spans.exported > 0) lines.push('  Jaeger:  http://localhost:16686 (service footprint-otel-demo; search tag footprint.trip.kinds)');
  if (health.metricPoints.exported > 0) lines.push('  Grafana: http://localhost:3000 (folder footprint-otel: the four dashboards)');
  return lines;
}

/** stderr warnings: losses by cause, with what to do about them. */
export function lossWarnings(destination: Destination, health: TelemetryHealth): string[] {
  const warnings: string[] = [];
  const hint =
    destination.kind === 'otlp'
      ? `is the collector at ${destination.traces} reachable and accepting?`
      : destination.kind === 'files'
        ? `could ${destination.directory} be written?`
        : '';
  if (totalLost(health.spans) > 0) warnings.push(`warning: telemetry spans lost: ${accountLine(health.spans)}; ${hint}`);
  if (totalLost(health.metricPoints) > 0) warnings.push(`warning: telemetry metric data points lost: ${accountLine(health.metricPoints)}; ${hint}`);
  if (everySpanLost(health)) warnings.push(`warning: every span of this run was lost; exit status ${EXIT_TELEMETRY_LOST}`);
  return warnings;
}

export function destinationName(destination: Destination): string {
  if (destination.kind === 'files') return `${destination.directory}/`;
  return destination.kind === 'otlp' ? destination.traces.replace(/\/v1\/traces$/, '') : 'nowhere';
}
