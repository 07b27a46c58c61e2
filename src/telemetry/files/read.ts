/**
 * Reads the file default back: OTLP-JSON ExportTraceServiceRequest lines into plain spans — ids,
 * parent, name, kind, times, attributes, events, status, resource — for the CLI's trace view and for
 * tests. Streams: a file is read line by line and each line's spans are yielded one at a time, so
 * neither a big folder nor a line of 200,000 spans is ever held whole. Accepts any OTLP JSON (a span's
 * links too, for `footprint-otel why`; Jaeger's /api/v3 answers in the same JSON): kinds and
 * status codes as numbers or enum names ("STATUS_CODE_ERROR"), times as strings or numbers. What it
 * cannot use is reported with file and line — a torn last line (a writer killed mid-write), a line
 * that is not JSON, a span missing a required field — and skipped; readSpans() throws on all but
 * torn tails.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { stat } from 'node:fs/promises';
import { listSignalFiles } from './fileNames.js';
import { readLines } from './lines.js';

export type FileAttributeValue = string | number | boolean | null | FileAttributeValue[] | { [key: string]: FileAttributeValue };
export type FileAttributes = Record<string, FileAttributeValue>;

export interface FileSpanEvent {
  name: string;
  timeUnixNano: string;
  timeMs: number;
  attributes: FileAttributes;
}

/** A span link: the span it points to (maybe in another trace) and the link's own attributes. */
export interface FileSpanLink {
  traceId: string;
  spanId: string;
  attributes: FileAttributes;
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
  attributes: FileAttributes;
  events: FileSpanEvent[];
  /** In the order written; a link without a trace or span id is left out. */
  links: FileSpanLink[];
  status: { code: SpanStatusCode; message?: string };
  /** Instrumentation scope name. */
  scope: string;
  resource: FileAttributes;
}

/** Something in a trace file that could not be used; where and why. */
export interface TraceFileProblem {
  file: string;
  line: number;
  kind: 'torn_tail' | 'not_json' | 'too_long' | 'bad_span';
  reason: string;
}

export class TraceFileError extends Error {
  override readonly name = 'TraceFileError';
  constructor(readonly problem: TraceFileProblem) {
    super(`${problem.file}:${problem.line}: ${problem.reason}`);
  }
}

export interface ScanOptions {
  /** Called for each unusable line or span (default: torn tails are skipped, anything else throws). */
  onProblem?: (problem: TraceFileProblem) => void;
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
  traceId?: unknown;
  spanId?: unknown;
  parentSpanId?: unknown;
  name?: unknown;
  kind?: unknown;
  startTimeUnixNano?: unknown;
  endTimeUnixNano?: unknown;
  attributes?: OtlpKeyValue[];
  events?: { name?: unknown; timeUnixNano?: unknown; attributes?: OtlpKeyValue[] }[];
  links?: { traceId?: unknown; spanId?: unknown; attributes?: OtlpKeyValue[] }[];
  status?: { code?: unknown; message?: unknown };
}

interface OtlpTraceRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

const STRICT = (problem: TraceFileProblem): void => {
  if (problem.kind !== 'torn_tail') throw new TraceFileError(problem);
};

/**
 * Every span in a trace file, or in every trace file of a folder (the legacy traces.jsonl, then each
 * session's files in start order); none when nothing was exported yet (no file, or no folder).
 */
export async function* scanSpans(fileOrFolder: string, options: ScanOptions = {}): AsyncGenerator<FileSpan> {
  const onProblem = options.onProblem ?? STRICT;
  for (const file of await traceFilesAt(fileOrFolder)) {
    for await (const line of readLines(file)) {
      if (line.kind === 'torn') {
        onProblem({ file, line: line.number, kind: 'torn_tail', reason: `torn last line (${line.bytes} bytes, a writer was stopped mid-write)` });
        continue;
      }
      if (line.kind === 'too_long') {
        onProblem({ file, line: line.number, kind: 'too_long', reason: `line of ${line.bytes} bytes is too long to read` });
        continue;
      }
      if (line.text.trim() === '') continue;
      let request: OtlpTraceRequest;
      try {
        request = JSON.parse(line.text) as OtlpTraceRequest;
      } catch (error) {
        onProblem({ file, line: line.number, kind: 'not_json', reason: `not OTLP JSON: ${(error as Error).message}` });
        continue;
      }
      yield* spansOf(request, (reason) => onProblem({ file, line: line.number, kind: 'bad_span', reason }));
    }
  }
}

/** All spans of a file or folder, in file order. Throws TraceFileError on anything but a torn tail. */
export async function readSpans(fileOrFolder: string): Promise<FileSpan[]> {
  const spans: FileSpan[] = [];
  for await (const span of scanSpans(fileOrFolder)) spans.push(span);
  return spans;
}

async function traceFilesAt(fileOrFolder: string): Promise<string[]> {
  try {
    if (!(await stat(fileOrFolder)).isDirectory()) return [fileOrFolder];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return listSignalFiles(fileOrFolder, 'traces');
}

/**
 * The usable spans of an OTLP JSON TracesData object parsed from anywhere (Jaeger's /api/v3 answer's
 * `result`); a span missing a required field is reported through `badSpan` and skipped.
 */
export function spansOfTraceData(data: unknown, badSpan: (reason: string) => void): FileSpan[] {
  return [...spansOf(data as OtlpTraceRequest, badSpan)];
}

/** The usable spans of one ExportTraceServiceRequest; a span missing a required field is reported. */
function* spansOf(request: OtlpTraceRequest, badSpan: (reason: string) => void): Generator<FileSpan> {
  if (!isObject(request)) {
    badSpan('not an ExportTraceServiceRequest object');
    return;
  }
  for (const resourceSpans of list(request.resourceSpans)) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of list(resourceSpans.scopeSpans)) {
      const scope = typeof scopeSpans.scope?.name === 'string' ? scopeSpans.scope.name : '';
      let index = 0;
      for (const span of list(scopeSpans.spans)) {
        index++;
        const missing = missingField(span);
        if (missing) {
          badSpan(`span ${index} of scope "${scope}" ${missing}`);
          continue;
        }
        const start = nanos(span.startTimeUnixNano)!;
        const end = nanos(span.endTimeUnixNano)!;
        yield {
          traceId: span.traceId as string,
          spanId: span.spanId as string,
          ...(typeof span.parentSpanId === 'string' && span.parentSpanId !== '' ? { parentSpanId: span.parentSpanId } : {}),
          name: span.name as string,
          kind: kindOf(span.kind),
          startTimeUnixNano: start,
          endTimeUnixNano: end,
          startMs: nanosToMs(start),
          endMs: nanosToMs(end),
          attributes: attributesOf(span.attributes),
          events: list(span.events).flatMap((event) => {
            const time = nanos(event.timeUnixNano);
            if (typeof event.name !== 'string' || time === undefined) return [];
            return [{ name: event.name, timeUnixNano: time, timeMs: nanosToMs(time), attributes: attributesOf(event.attributes) }];
          }),
          links: list(span.links).flatMap((link) => {
            if (!isObject(link) || typeof link.traceId !== 'string' || typeof link.spanId !== 'string' || link.traceId === '' || link.spanId === '') return [];
            return [{ traceId: link.traceId, spanId: link.spanId, attributes: attributesOf(link.attributes) }];
          }),
          status: {
            code: statusOf(span.status?.code),
            ...(typeof span.status?.message === 'string' && span.status.message !== '' ? { message: span.status.message } : {}),
          },
          scope,
          resource,
        };
      }
    }
  }
}

function missingField(span: OtlpSpan): string | undefined {
  if (!isObject(span)) return 'is not an object';
  for (const field of ['traceId', 'spanId', 'name'] as const) {
    if (typeof span[field] !== 'string' || span[field] === '') return `has no ${field}`;
  }
  for (const field of ['startTimeUnixNano', 'endTimeUnixNano'] as const) {
    if (nanos(span[field]) === undefined) return `has no valid ${field}`;
  }
  return undefined;
}

/** Nanoseconds as a digit string; numbers and digit strings are accepted, anything else is not. */
function nanos(value: unknown): string | undefined {
  if (typeof value === 'string' && /^\d{1,30}$/.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return undefined;
}

function nanosToMs(nanos: string): number {
  return Number(BigInt(nanos) / 1000n) / 1000;
}

const KIND_NAMES: Record<string, SpanKind> = {
  SPAN_KIND_INTERNAL: SpanKind.INTERNAL,
  SPAN_KIND_SERVER: SpanKind.SERVER,
  SPAN_KIND_CLIENT: SpanKind.CLIENT,
  SPAN_KIND_PRODUCER: SpanKind.PRODUCER,
  SPAN_KIND_CONSUMER: SpanKind.CONSUMER,
};

/** OTLP numbers kinds from 1 (INTERNAL; 0 is unspecified); the API's SpanKind starts at 0. */
function kindOf(kind: unknown): SpanKind {
  if (typeof kind === 'string') return KIND_NAMES[kind] ?? SpanKind.INTERNAL;
  if (typeof kind === 'number' && kind >= 1 && kind <= 5) return (kind - 1) as SpanKind;
  return SpanKind.INTERNAL;
}

const STATUS_NAMES: Record<string, SpanStatusCode> = {
  STATUS_CODE_UNSET: SpanStatusCode.UNSET,
  STATUS_CODE_OK: SpanStatusCode.OK,
  STATUS_CODE_ERROR: SpanStatusCode.ERROR,
};

function statusOf(code: unknown): SpanStatusCode {
  if (typeof code === 'string') return STATUS_NAMES[code] ?? SpanStatusCode.UNSET;
  if (code === SpanStatusCode.OK || code === SpanStatusCode.ERROR) return code;
  return SpanStatusCode.UNSET;
}

function attributesOf(values: OtlpKeyValue[] | undefined, depth = 0): FileAttributes {
  const out: FileAttributes = {};
  for (const entry of list(values)) {
    if (isObject(entry) && typeof entry.key === 'string') out[entry.key] = valueOf(entry.value, depth);
  }
  return out;
}

/** Nested values deeper than this are cut (shown as null): a hostile file cannot recurse without end. */
const MAX_VALUE_DEPTH = 16;

function valueOf(value: OtlpAnyValue | undefined, depth: number): FileAttributeValue {
  if (!isObject(value) || depth > MAX_VALUE_DEPTH) return null;
  if (value.stringValue !== undefined) return String(value.stringValue);
  if (value.boolValue !== undefined) return Boolean(value.boolValue);
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (value.bytesValue !== undefined) return String(value.bytesValue);
  if (value.arrayValue !== undefined) return list(value.arrayValue?.values).map((v) => valueOf(v, depth + 1));
  if (value.kvlistValue !== undefined) return attributesOf(value.kvlistValue?.values, depth + 1);
  return null;
}

function list<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
