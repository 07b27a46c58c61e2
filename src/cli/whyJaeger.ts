/**
 * `why` over a Jaeger's HTTP query API. A trace is read from `/api/v3/traces/{traceId}`, which
 * answers in OTLP JSON (`{ result: TracesData }`), parsed by the same reader as the files: unlike the
 * v1 `/api/traces/{traceId}` its UI uses, whose span references keep a link's span id but drop its
 * attributes (link type, origin, parts), and the walk needs those. A run id is found through the v1
 * search (`/api/traces?service=…&tags=…`, the UI's), service by service. Every answer is bounded in
 * size and time; a trace Jaeger does not have (404) is absent.
 */
import { spansOfTraceData, type FileSpan } from '../telemetry/index.js';
import { CliError, UsageError } from './args.js';
import type { RunWanted, WhySource } from './whySource.js';

/** Largest answer read from Jaeger; a bigger one is refused (a hostile or mistaken endpoint). */
export const MAX_JAEGER_BYTES = 64 * 1024 * 1024;
const JAEGER_TIMEOUT_MS = 30_000;
/** Services searched for a run id. */
const MAX_SERVICES = 64;
/** How far back the run-id search looks. */
const SEARCH_LOOKBACK_MS = 7 * 24 * 3600 * 1000;

export function jaegerSource(url: string): WhySource {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new UsageError(`--jaeger needs a URL such as http://127.0.0.1:16686, not "${url}"`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new UsageError(`--jaeger needs an http(s) URL, not "${url}"`);
  const where = base.origin + base.pathname.replace(/\/$/, '');
  const warnings: string[] = [];
  const get = (path: string) => getBounded(`${where}${path}`);
  return {
    where,
    async chooseTrace(want: RunWanted): Promise<string> {
      if (want.trace !== undefined) {
        if (!/^[0-9a-f]{32}$/i.test(want.trace)) throw new UsageError('with --jaeger, --trace takes a whole trace id (32 hex digits)');
        return want.trace.toLowerCase();
      }
      if (want.run === undefined) throw new UsageError('with --jaeger, name the run: --trace ID or --run RUN_ID');
      const services = (await get('/api/services')).chunks[0];
      const names = (isRecord(services) && Array.isArray(services.data) ? services.data : []).filter((s): s is string => typeof s === 'string');
      const end = Date.now() * 1000;
      for (const service of names.slice(0, MAX_SERVICES)) {
        const query = new URLSearchParams({
          service,
          tags: JSON.stringify({ 'footprint.run.id': want.run }),
          limit: '1',
          start: String(end - SEARCH_LOOKBACK_MS * 1000),
          end: String(end),
        });
        const found = (await get(`/api/traces?${query}`)).chunks[0];
        const first = isRecord(found) && Array.isArray(found.data) ? found.data[0] : undefined;
        if (isRecord(first) && typeof first.traceID === 'string') return first.traceID;
      }
      throw new CliError(`no run with run id ${want.run} in ${where} (searched ${Math.min(names.length, MAX_SERVICES)} service(s))`);
    },
    async readTraces(traceIds): Promise<Map<string, FileSpan[]>> {
      const out = new Map<string, FileSpan[]>();
      for (const traceId of traceIds) {
        const answer = await get(`/api/v3/traces/${encodeURIComponent(traceId)}`);
        if (answer.status === 404) {
          out.set(traceId, []);
          continue;
        }
        let bad = 0;
        const spans = answer.chunks.flatMap((chunk) => (isRecord(chunk) && chunk.result !== undefined ? spansOfTraceData(chunk.result, () => bad++) : []));
        out.set(traceId, spans);
        if (bad > 0) warnings.push(`footprint-otel: ${bad} span(s) of trace ${traceId} from ${where} missing a required field skipped`);
      }
      return out;
    },
    warnings: () => warnings,
  };
}

/**
 * One GET: JSON, at most MAX_JAEGER_BYTES, within JAEGER_TIMEOUT_MS; 404 is an answer, other errors
 * are CliErrors. The v3 trace endpoint streams (gRPC-gateway): its body may be several JSON objects
 * one after another, each `{ result: TracesData }`, or an array of them; `chunks` holds each.
 */
async function getBounded(url: string): Promise<{ status: number; chunks: unknown[] }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(JAEGER_TIMEOUT_MS), headers: { accept: 'application/json' } });
  } catch (error) {
    throw new CliError(`cannot reach Jaeger at ${url}: ${(error as Error).message}`);
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return { status: 404, chunks: [] };
  }
  const text = await boundedText(response, url);
  if (!response.ok) throw new CliError(`Jaeger answered ${response.status} to ${url}: ${text.slice(0, 200)}`);
  try {
    const chunks = jsonValues(text).map((value) => JSON.parse(value) as unknown);
    return { status: response.status, chunks: chunks.length === 1 && Array.isArray(chunks[0]) ? chunks[0] : chunks };
  } catch {
    throw new CliError(`Jaeger's answer to ${url} is not JSON`);
  }
}

/** The top-level JSON values of a text that holds one or more of them one after another (strings and escapes respected). */
function jsonValues(text: string): string[] {
  const values: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) values.push(text.slice(start, i + 1));
    }
  }
  if (depth !== 0 || values.length === 0) throw new SyntaxError('not JSON');
  return values;
}

async function boundedText(response: Response, url: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_JAEGER_BYTES) {
      await reader.cancel();
      throw new CliError(`Jaeger's answer to ${url} is over ${MAX_JAEGER_BYTES / 1024 / 1024} MiB; refused`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
