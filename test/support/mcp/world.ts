/**
 * The two-process world of the MCP tests: a local OTLP receiver both processes export to (OTLP/JSON),
 * this process's telemetry (service desk-agent, through startTelemetry), the fixture server's command
 * (service mcp-desk), and the exported spans read back from the receiver as flat records.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Agent, scripted, type LLMRequest, type ScriptedReply } from '../../../src/index.js';
import type { StdioServer, McpConnection } from '../../../src/mcp/index.js';
import { startTelemetry, type TelemetryHandle } from '../../../src/telemetry/index.js';
import { compiled } from '../compiled.js';
import { startReceiver, type Receiver } from '../../telemetry/receiver.js';

/** The fixture servers, compiled (test/support/compiled.ts). */
export const FIXTURE = compiled(resolve(import.meta.dirname, '../../mcp/fixtures/deskServer.ts'));
export const MALFORMED = compiled(resolve(import.meta.dirname, '../../mcp/fixtures/malformedServer.ts'));

/** Starting a fixture process on this loaded machine can take seconds: the tests allow 30 s to connect. */
export const SLOW_START = { connectTimeoutMs: 30_000 } as const;

export interface FlatSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, string | number | boolean>;
  links: string[];
  status: number;
  /** Start and end, in nanoseconds since the epoch. */
  startNs: bigint;
  endNs: bigint;
}

export interface World {
  receiver: Receiver;
  telemetry: TelemetryHandle;
  childEnv: Record<string, string>;
  spans(): FlatSpan[];
  stop(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const receiver = await startReceiver();
  // the SDK reads these from the environment only (the batch processor when the first span starts):
  // set for the world's life, put back as they were by stop() (test files share a worker:
  // test/support/sharedWorker.ts)
  const settings = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' };
  const before = Object.fromEntries(Object.keys(settings).map((key) => [key, process.env[key]]));
  Object.assign(process.env, settings);
  const restoreEnv = () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  const telemetry = startTelemetry({ serviceName: 'desk-agent', endpoint: receiver.url, metricExportIntervalMs: 3_600_000 });
  const childEnv = {
    OTEL_SERVICE_NAME: 'mcp-desk',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_METRIC_EXPORT_INTERVAL: '3600000',
  };
  return {
    receiver,
    telemetry,
    childEnv,
    spans: () => receiver.of('/v1/traces').flatMap((r) => flatten(JSON.parse(r.body.toString('utf8')) as TracesRequest)),
    async stop() {
      await telemetry.shutdown();
      await receiver.stop();
      restoreEnv();
    },
  };
}

export function stdioServer(world: World): StdioServer {
  return { command: process.execPath, args: [FIXTURE, 'stdio'], env: { ...world.childEnv }, stderr: 'inherit' };
}

/** Starts the fixture server over Streamable HTTP (with `env` added to the world's); resolves with its URL and the process. */
export async function httpServer(world: World, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [FIXTURE, 'http'], { env: { ...process.env, ...world.childEnv, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((done, fail) => {
    child.stdout!.once('data', (chunk: Buffer) => done(String(chunk).trim()));
    child.once('exit', (code) => fail(new Error(`the HTTP fixture exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/** Waits until `check` holds for the exported spans (both processes export in batches). */
export async function until(world: World, check: (spans: FlatSpan[]) => boolean, ms = 15_000): Promise<FlatSpan[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    await world.telemetry.forceFlush();
    const spans = world.spans();
    if (check(spans)) return spans;
    if (Date.now() > deadline) return spans;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An agent that calls `tool` once with the order id the user names, then answers with the tool's text. */
export function deskAgent(mcp: McpConnection, tool = 'lookup_order') {
  const provider = scripted({
    name: 'openai',
    replies: (request: LLMRequest): ScriptedReply => {
      const result = request.messages.find((m) => m.role === 'tool');
      if (result) return { content: `answer: ${result.content}`, usage: { input: 10, output: 5 } };
      const user = request.messages.find((m) => m.role === 'user');
      const id = String(user?.content ?? '').replace(/\D/g, '');
      return { toolCalls: [{ id: 'c1', name: tool, args: tool === 'hang' || tool === 'crash' ? {} : { id } }], usage: { input: 10, output: 5 } };
    },
  });
  return Agent.create({ provider, model: 'm1', id: 'desk', name: 'Desk' }).system('Help.').tools(mcp).build();
}

interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: KeyValue['value'][] } };
}
interface TracesRequest {
  resourceSpans: {
    resource: { attributes: KeyValue[] };
    scopeSpans: {
      spans: { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; startTimeUnixNano: string; endTimeUnixNano: string; attributes?: KeyValue[]; links?: { spanId: string }[]; status?: { code?: number } }[];
    }[];
  }[];
}

/** A value; an array as the JSON text of its values. */
function valueOf(v: KeyValue['value']): string | number | boolean {
  if (v.arrayValue !== undefined) return JSON.stringify((v.arrayValue.values ?? []).map(valueOf));
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  return v.boolValue ?? '';
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

function flatten(request: TracesRequest): FlatSpan[] {
  return request.resourceSpans.flatMap((rs) => {
    const service = String(attributesOf(rs.resource.attributes)['service.name']);
    return rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((s) => ({
        service,
        name: s.name,
        kind: s.kind,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        attributes: attributesOf(s.attributes),
        links: (s.links ?? []).map((l) => l.spanId),
        status: s.status?.code ?? 0,
        startNs: BigInt(s.startTimeUnixNano),
        endNs: BigInt(s.endTimeUnixNano),
      })),
    );
  });
}

/** The span's ancestry, leaf first, as `service: name` up to the root (a missing parent ends it with '?'). */
export function ancestry(spans: FlatSpan[], leaf: FlatSpan): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: string[] = [];
  for (let span: FlatSpan | undefined = leaf; span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) {
    chain.push(`${span.service}: ${span.name}`);
    if (span.parentSpanId && !byId.has(span.parentSpanId)) chain.push('?');
  }
  return chain;
}
