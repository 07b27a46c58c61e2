/**
 * A demo lasts seconds, not minutes: at the SDK's 60 s default it would export its metrics once, at
 * exit, and every rate()/increase() panel would have one sample per series. Every 5 s (and once more
 * at exit) gives a load of ~15 s several samples. OTEL_METRIC_EXPORT_INTERVAL still wins when set.
 * The demo and the desk's MCP server (`demo --mcp`) both export at this pace.
 */
export const DEMO_METRIC_INTERVAL_MS = 5_000;

/** The metric export interval to give startTelemetry: the variable's when set, else the demo's. */
export function demoMetricInterval(env: NodeJS.ProcessEnv = process.env): number | undefined {
  return env.OTEL_METRIC_EXPORT_INTERVAL ? undefined : DEMO_METRIC_INTERVAL_MS;
}
