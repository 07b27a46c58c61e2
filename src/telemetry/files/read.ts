/**
 * Reads the file default back: traces.jsonl (one OTLP JSON ExportTraceServiceRequest per line) into
 * plain spans — ids, parent, name, kind, times, attributes, events, status, resource — for the CLI's
 * trace view and for tests. The file is created by the first export, so a missing file means no spans
 * yet. A last line cut short by a crash mid-write is skipped; any other bad line is an error naming it.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { readFile } from 'node:fs/promises';

export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export interface FileSpanEvent {
  name: string;
  timeUnixNano: string;
  timeMs: number;
  attributes: Attributes;
}

export interface FileSpan {
  traceId: string;
  spanId: string;
  /** Absent on a trace's root span. */
  parentSpanId?: string;
  name: string;
  kind: SpanKind;
  /** Nanoseconds since the epoch, exactly as written (too large for a JS number). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  /** The same times in milliseconds since the epoch (below a microsecond, precision is lost). */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: FileSpanEvent[];
  status: { code: SpanStatusCode; message?: string };
  /** Instrumentation scope name. */
  scope: string;
  resource: Attributes;
}

interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}

interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  events?: { name: string; timeUnixNano: string | number; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number; message?: string };
}

interface OtlpTraceRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

/** Every span in a traces.jsonl file, in file order; none when nothing was exported yet (no file). */
export async function readSpans(file: string): Promise<FileSpan[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  const spans: FileSpan[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const last = index === lines.length - 1;
    let request: OtlpTraceRequest;
    try {
      request = JSON.parse(line) as OtlpTraceRequest;
    } catch (error) {
      if (last && !complete) return;
      throw new Error(`${file}:${index + 1} is not OTLP JSON: ${(error as Error).message}`);
    }
    spans.push(...spansOf(request));
  });
  return spans;
}

/** The spans of one ExportTraceServiceRequest in OTLP JSON. */
function spansOf(request: OtlpTraceRequest): FileSpan[] {
  const spans: FileSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        const start = String(span.startTimeUnixNano);
        const end = String(span.endTimeUnixNano);
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
          name: span.name,
          // OTLP numbers kinds from 1 (INTERNAL); the API's SpanKind starts at 0
          kind: Math.max(0, (span.kind ?? 1) - 1) as SpanKind,
          startTimeUnixNano: start,
          endTimeUnixNano: end,
          startMs: nanosToMs(start),
          endMs: nanosToMs(end),
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((event) => ({
            name: event.name,
            timeUnixNano: String(event.timeUnixNano),
            timeMs: nanosToMs(String(event.timeUnixNano)),
            attributes: attributesOf(event.attributes),
          })),
          status: {
            code: (span.status?.code ?? SpanStatusCode.UNSET) as SpanStatusCode,
            ...(span.status?.message ? { message: span.status.message } : {}),
          },
          scope: scopeSpans.scope?.name ?? '',
          resource,
        });
      }
    }
  }
  return spans;
}

function nanosToMs(nanos: string): number {
  return Number(BigInt(nanos) / 1000n) / 1000;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Attributes {
  const out: Attributes = {};
  for (const { key, value } of list ?? []) out[key] = valueOf(value);
  return out;
}

function valueOf(value: OtlpAnyValue | undefined): AttributeValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.bytesValue !== undefined) return value.bytesValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue !== undefined) return attributesOf(value.kvlistValue.values);
  return null;
}
