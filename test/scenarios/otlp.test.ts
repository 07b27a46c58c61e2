/**
 * End to end over the wire: the real OTLPTraceExporter (OTLP/HTTP, JSON) ships a traced agent run to
 * a node:http receiver on 127.0.0.1; the decoded payload holds the same span tree, ids and GenAI
 * attributes the in-memory exporter saw.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingInstrument } from '../../src/otel/index.js';
import { MemoryConversationStore, registerInstrument } from '../../src/runtime/index.js';
import { twoToolAgent, twoToolChatAttributes } from '../support/agents.js';
import { render } from '../support/traceTree.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
}

const bodies: unknown[] = [];
let server: Server;
let memory: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      expect(req.url).toBe('/v1/traces');
      expect(req.headers['content-type']).toContain('application/json');
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  memory = new InMemorySpanExporter();
  provider = new BasicTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor(memory),
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` })),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  registerInstrument(tracingInstrument());
});

afterAll(async () => {
  await provider.shutdown();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('OTLP/HTTP JSON export', () => {
  it('delivers the same tree to a receiver', async () => {
    await twoToolAgent().run('Is invoice 42 paid?', { conversationId: 's-1', conversationStore: new MemoryConversationStore() });
    await provider.forceFlush();
    const spans = bodies.flatMap((body) =>
      (body as { resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
        r.scopeSpans.filter((s) => s.scope.name === 'footprint-otel').flatMap((s) => s.spans),
      ),
    );
    const local = memory.getFinishedSpans();
    expect(spans).toHaveLength(local.length);
    expect(renderDecoded(spans)).toBe(render(local));
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([local[0].spanContext().traceId]));

    const attributes = (span: OtlpSpan) => Object.fromEntries(span.attributes.map((a) => [a.key, valueOf(a.value)]));
    const chat = spans.find((s) => s.name === 'chat m1')!;
    expect(chat.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(attributes(chat)).toEqual(twoToolChatAttributes(1, { sessionId: 's-1' }));
    const root = spans.find((s) => s.name === 'invoke_agent Helper')!;
    expect(root.parentSpanId ?? '').toBe('');
    const { 'footprint.llm.calls': calls, 'footprint.run.outcome': outcome, 'gen_ai.agent.name': name } = attributes(root);
    expect([calls, outcome, name]).toEqual([3, 'ok', 'Helper']);
    // Every span arrives with exactly the attribute set the SDK recorded: nothing dropped, nothing added.
    const localById = new Map(local.map((s) => [s.spanContext().spanId, s.attributes]));
    expect(Object.fromEntries(spans.map((s) => [s.spanId, attributes(s)]))).toEqual(Object.fromEntries(localById));
  });
});

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return value.boolValue;
}

/** The decoded spans drawn the way render() draws SDK spans. */
function renderDecoded(spans: OtlpSpan[]): string {
  const kinds = ['', '', '', ' [CLIENT]', ' [SERVER]', ' [PRODUCER]', ' [CONSUMER]'];
  const byStart = [...spans].sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
  const lines: string[] = [];
  const visit = (span: OtlpSpan, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${span.name}${kinds[span.kind] ?? ''}`);
    for (const child of byStart.filter((s) => s.parentSpanId === span.spanId)) visit(child, depth + 1);
  };
  for (const root of byStart.filter((s) => !s.parentSpanId)) visit(root, 0);
  return lines.join('\n');
}
