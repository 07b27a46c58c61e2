// The real stack with an MCP tool: `footprint-otel demo --mcp` over OTLP into the collector, Jaeger v2
// and Prometheus 3 (built by scripts/build-backends.sh). Jaeger must hold one trace with both services
// (the demo and its desk-tools MCP server), the MCP server span a child of the MCP client span under
// execute_tool; Prometheus the MCP client and server duration histograms by tool.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackends, waitFor } from '../support/backends.js';
import { runDemo, type DemoRun } from '../support/stack/clients.js';
import { startStack, type RunningStack } from '../support/stack/start-stack.js';

const SERVICE = 'footprint-stack-mcp';
const SERVER_SERVICE = 'footprint-otel-desk-tools';
/** A billing ticket: the agent calls lookup_invoice, served by the MCP server. */
const TICKET = ['--mcp', '--ticket', 'Please send me a copy of my last invoice'];

interface JaegerTraceWithProcesses {
  traceID: string;
  spans: { spanID: string; operationName: string; processID: string; references: { refType: string; spanID: string }[]; tags: { key: string; value: unknown }[] }[];
  processes: Record<string, { serviceName: string }>;
}

describeWithBackends('the real stack with an MCP tool: one trace across two services', ['otelcol', 'jaeger', 'prometheus', 'alertmanager'], (bins) => {
  let stack: RunningStack;
  let run: DemoRun;

  beforeAll(async () => {
    // every trace kept: this test looks for one clean trace, which the tail sampler would keep only by chance
    stack = await startStack({ bins: { otelcol: bins.otelcol, jaeger: bins.jaeger, prometheus: bins.prometheus, alertmanager: bins.alertmanager }, collectorEnv: { FOOTPRINT_SAMPLE_PERCENT: '100' } });
    run = await runDemo({ args: TICKET, env: { OTEL_EXPORTER_OTLP_ENDPOINT: stack.otlpUrl, OTEL_SERVICE_NAME: SERVICE, OTEL_METRIC_EXPORT_INTERVAL: '1000' } });
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('Jaeger holds the run as one trace of both services, the server span under the client span under execute_tool', async () => {
    expect(run.exitCode).toBe(0);
    const trace = await waitFor(
      async () => {
        const [found] = await stack.jaeger.search(SERVICE, { 'gen_ai.tool.name': 'lookup_invoice' });
        if (!found) return undefined;
        const whole = (await stack.jaeger.get<{ data: JaegerTraceWithProcesses[] }>(`/api/traces/${found.traceID}`)).data[0];
        const services = new Set(Object.values(whole?.processes ?? {}).map((p) => p.serviceName));
        return services.has(SERVER_SERVICE) ? whole : undefined;
      },
      { what: 'the MCP trace with both services in Jaeger', timeoutMs: 60_000, intervalMs: 2_000 },
    );
    const serviceOf = (span: JaegerTraceWithProcesses['spans'][number]) => trace.processes[span.processID]!.serviceName;
    const byId = new Map(trace.spans.map((s) => [s.spanID, s]));
    const server = trace.spans.find((s) => s.operationName === 'tools/call lookup_invoice' && serviceOf(s) === SERVER_SERVICE)!;
    const parentOf = (span: typeof server) => byId.get(span.references.find((r) => r.refType === 'CHILD_OF')!.spanID)!;
    const client = parentOf(server);
    expect([client.operationName, serviceOf(client)]).toEqual(['tools/call lookup_invoice', SERVICE]);
    expect(client.tags.find((t) => t.key === 'span.kind')?.value).toBe('client');
    expect(server.tags.find((t) => t.key === 'span.kind')?.value).toBe('server');
    expect([parentOf(client).operationName, serviceOf(parentOf(client))]).toEqual(['execute_tool lookup_invoice', SERVICE]);
    expect(new Set(Object.values(trace.processes).map((p) => p.serviceName))).toEqual(new Set([SERVICE, SERVER_SERVICE]));
  }, 120_000);

  it('Prometheus has the MCP client and server duration histograms for lookup_invoice', async () => {
    const count = async (query: string) => (await stack.prometheus.query(query)).map((s) => Number(s.value[1])).reduce((a, b) => a + b, 0);
    const client = await waitFor(
      async () => (await count(`mcp_client_operation_duration_seconds_count{service_name="${SERVICE}", mcp_method_name="tools/call", gen_ai_tool_name="lookup_invoice"}`)) || undefined,
      { what: 'mcp.client.operation.duration in Prometheus', timeoutMs: 60_000 },
    );
    const server = await waitFor(
      async () => (await count(`mcp_server_operation_duration_seconds_count{service_name="${SERVER_SERVICE}", mcp_method_name="tools/call", gen_ai_tool_name="lookup_invoice"}`)) || undefined,
      { what: 'mcp.server.operation.duration in Prometheus', timeoutMs: 60_000 },
    );
    expect([client, server]).toEqual([1, 1]);
  }, 150_000);
});
