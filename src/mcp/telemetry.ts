/**
 * The tracer and the two duration histograms of footprint-otel/mcp, taken from the global OTel API
 * each time (an SDK started after the connection still gets the spans), with the instruments made
 * from the metric catalog's entries.
 */
import { metrics, trace, type Histogram, type Tracer } from '@opentelemetry/api';
import { createHistogram, METRICS } from '../otel/index.js';

export const MCP_INSTRUMENTATION = 'footprint-otel.mcp';

let tracer: { provider: unknown; tracer: Tracer } | undefined;

export function mcpTracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (tracer?.provider !== provider) tracer = { provider, tracer: provider.getTracer(MCP_INSTRUMENTATION) };
  return tracer.tracer;
}

let cached: { provider: unknown; client: Histogram; server: Histogram } | undefined;

function histograms(): { client: Histogram; server: Histogram } {
  const provider = metrics.getMeterProvider();
  if (cached?.provider !== provider) {
    const meter = provider.getMeter(MCP_INSTRUMENTATION);
    cached = { provider, client: createHistogram(meter, METRICS.mcpClientDuration), server: createHistogram(meter, METRICS.mcpServerDuration) };
  }
  return cached;
}

export function clientDuration(): Histogram {
  return histograms().client;
}

export function serverDuration(): Histogram {
  return histograms().server;
}
