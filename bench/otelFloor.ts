/**
 * The floor under bench/mcp.ts's number: what the OTel SDK operations a traced MCP tool call needs
 * cost by themselves, hot, in one process, under startTelemetry's pipeline (OTLP/JSON to a local
 * receiver). A traced call does each of these once per side (two spans, two histogram records, one
 * inject and one extract), whatever footprint-otel/mcp's own code around them costs.
 *
 *   npm run build && node --import tsx --import ./bench/fromDist.mjs bench/otelFloor.ts
 */
import { propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { addSession, durationAttributes, requestAttributes } from '../src/mcp/requestSpan.js';
import { clientDuration, mcpTracer } from '../src/mcp/telemetry.js';
import { contextFromMeta, withContextInMeta } from '../src/mcp/meta.js';
import { startTelemetry } from '../src/telemetry/index.js';
import { median } from './measure.js';
import { startReceiver } from './receiver.js';

const receiver = await startReceiver();
process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
const telemetry = startTelemetry({ serviceName: 'bench-otel-floor', endpoint: receiver.url, metricExportIntervalMs: 3_600_000 });

const OPS = 100_000;
/** Between chunks a turn of the event loop, so the span queue exports instead of filling up and dropping. */
const CHUNK = 256;

async function measure(name: string, op: (i: number) => unknown): Promise<void> {
  const rounds: number[] = [];
  for (let r = 0; r < 6; r++) {
    let busy = 0;
    for (let i = 0; i < OPS; i += CHUNK) {
      const started = performance.now();
      for (let k = i; k < i + CHUNK; k++) op(k);
      busy += performance.now() - started;
      await new Promise(setImmediate);
    }
    if (r > 0) rounds.push((busy * 1000) / OPS);
  }
  console.log(`  ${name.padEnd(52)} ${median(rounds).toFixed(2)} µs`);
}

const tracer = mcpTracer();
const parent = trace.setSpan(ROOT_CONTEXT, tracer.startSpan('bench parent'));
const network = { 'network.transport': 'pipe' };
const spanAttributes = () => addSession(Object.assign(requestAttributes('tools/call', 'lookup_order', false, undefined), network, { 'jsonrpc.request.id': '7' }), undefined, '2025-11-25');
const metric = () => Object.assign(durationAttributes('tools/call', 'desk-tools', 'pipe', 'lookup_order'), { 'mcp.protocol.version': '2025-11-25' });
const histogram = clientDuration();
const request = (i: number) => ({ method: 'tools/call', params: { name: 'lookup_order', arguments: { id: String(i) } }, jsonrpc: '2.0', id: i });
const carrier: Record<string, string> = {};
propagation.inject(parent, carrier);
const params = { name: 'lookup_order', arguments: { id: '7' }, _meta: carrier };

console.log(`OTel SDK operations of one traced MCP call, hot, median of 5 rounds x ${OPS}:`);
await measure('span start + end (the MCP span attributes)', () => tracer.startSpan('tools/call lookup_order', { kind: SpanKind.CLIENT, attributes: spanAttributes() }, parent).end());
await measure('histogram record (the duration metric attributes)', (i) => histogram.record(i / 1e6, metric()));
await measure('inject into _meta (withContextInMeta)', (i) => withContextInMeta(request(i), parent));
await measure('extract from _meta (contextFromMeta)', () => contextFromMeta(params));
await measure('for scale: building the request object alone', (i) => request(i));

await telemetry.shutdown();
await receiver.close();
