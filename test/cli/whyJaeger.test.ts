/**
 * `why --jaeger` against a server on 127.0.0.1 that answers as Jaeger's query API does: the v3 trace
 * endpoint streams its answer as several `{ result }` objects one after another (OTLP JSON, here the
 * very lines the file exporter wrote), keeps each link without its attributes (but
 * `opentracing.ref_type`), and makes a root span's first same-trace link its parent (Jaeger's span
 * model takes a root's first same-trace FOLLOWS_FROM reference as its parent: the run span names its
 * answer by attributes, so it stays a root); an unknown trace is a 404; a run id is found through the
 * classic search. The slice read from it is the slice read from the
 * files, each link's meaning read off the spans it joins.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainLine } from '../../src/cli/terminal.js';
import { whyCommand } from '../../src/cli/why.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { semconv } from '../../src/index.js';
import { tempDir } from '../support/cli.js';
import { chat, tool, writeLineage, type Written } from './whyFixtures.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpanJson {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: { key: string; value: OtlpValue }[];
  links?: { traceId: string; spanId: string; attributes: { key: string; value: { stringValue?: string } }[] }[];
}
interface OtlpLine {
  resourceSpans: { scopeSpans: { spans: OtlpSpanJson[] }[] }[];
}

describe('why --jaeger', () => {
  const temp = tempDir('why-jaeger');
  const dir = path.join(temp.dir, 'telemetry');
  let written: Written;
  let server: Server;
  let url: string;
  const requests: string[] = [];

  beforeAll(async () => {
    written = await writeLineage(dir, [
      { name: 'run', title: 'invoke_workflow desk', attributes: { [semconv.ATTR_FOOTPRINT_RUN_ID]: 'run_j' } },
      { name: 'c1', title: 'chat m', parent: 'run', attributes: chat({ callId: 'call_1', model: 'm', agent: 'tech', iteration: 1, input: 10, output: 2, cost: 0.001, parts: [['run_input', 'run_j', 4]] }) },
      { name: 't1', title: 'execute_tool lookup', parent: 'run', attributes: tool('lookup', 't1', 1), links: [{ to: 'c1', type: 'CAUSED_BY_GENERATION', producer: 'call_1' }] },
      {
        name: 'c2', title: 'chat m', parent: 'run',
        attributes: chat({ callId: 'call_2', model: 'm', agent: 'tech', iteration: 2, input: 20, output: 3, cost: 0.002, parts: [['run_input', 'run_j', 4], ['tool_result', 'call_1:t1', 6]] }),
        links: [
          { to: 't1', type: 'INFORMED_BY', origin: 'tool_result', parts: [1], tokens: 6, producer: 'call_1:t1' },
          // another run, which this Jaeger does not have
          { to: 'elsewhere', type: 'INFORMED_BY', origin: 'conversation', parts: [0], producer: 'call_0' },
        ],
      },
    ], { answer: 'c2', foreign: { elsewhere: { traceId: 'e'.repeat(32), spanId: '2'.repeat(16), traceFlags: 1 } } });
    const lines = readdirSync(dir).filter((n) => n.startsWith('traces-')).flatMap((n) => readFileSync(path.join(dir, n), 'utf8').trim().split('\n'));
    const chunks = lines.map((line) => asJaegerStoresIt(JSON.parse(line) as OtlpLine));
    const traceId = written.traceIds.get('run')!;
    server = createServer((request, response) => {
      requests.push(request.url!);
      const at = new URL(request.url!, 'http://x');
      response.setHeader('content-type', 'application/json');
      if (at.pathname === `/api/v3/traces/${traceId}`) return response.end(chunks.map((chunk) => JSON.stringify({ result: chunk })).join('\n'));
      if (at.pathname === '/api/services') return response.end(JSON.stringify({ data: ['other', 'footprint'] }));
      if (at.pathname === '/api/traces' && at.searchParams.get('service') === 'footprint' && at.searchParams.get('tags') === JSON.stringify({ 'footprint.run.id': 'run_j' })) {
        return response.end(JSON.stringify({ data: [{ traceID: traceId, spans: [] }] }));
      }
      if (at.pathname === '/api/traces') return response.end(JSON.stringify({ data: [] }));
      response.statusCode = 404;
      response.end(JSON.stringify({ error: { httpCode: 404, message: 'trace not found' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    temp.remove();
  });

  it('reads the run by run id, across streamed chunks, its run span still a root: the same slice as from the files', async () => {
    const fromJaeger = await whyCommand({ path: 'unused', jaeger: url, run: 'run_j', json: true });
    const fromFiles = await whyCommand({ path: dir, run: 'run_j', json: true });
    expect(fromJaeger.warnings).toEqual([]);
    // the same slice, each link's meaning read off the spans at both ends (marked inferred); the link
    // into a trace Jaeger does not have cannot say what it was
    const files = JSON.parse(fromFiles.lines.join('\n')) as WhyGraph;
    expect(JSON.parse(fromJaeger.lines.join('\n'))).toEqual({
      ...files,
      edges: files.edges.map((edge) => {
        if (edge.linkType === null) return edge;
        if (edge.origin === 'conversation') return { ...edge, linkType: 'unknown', origin: 'unknown', partIndexes: [], inferred: true };
        return { ...edge, inferred: true };
      }),
    });
    expect(requests).toEqual([
      '/api/services',
      expect.stringMatching(/^\/api\/traces\?service=other&/),
      expect.stringMatching(/^\/api\/traces\?service=footprint&/),
      `/api/v3/traces/${written.traceIds.get('run')}`,
      `/api/v3/traces/${'e'.repeat(32)}`,
    ]);
    const tree = await whyCommand({ path: 'unused', jaeger: url, trace: written.traceIds.get('run')!, json: false });
    expect(tree.lines.map(plainLine)).toEqual([
      `why: run run_j, trace ${written.traceIds.get('run')} from ${url}: the answer ← what its input came from`,
      'chat m  member tech  route desk>tech  iteration 2  model m  tokens 20 in / 3 out  $0.002000',
      '├─ tool_result #1 (6 tok) INFORMED_BY (inferred) ← execute_tool lookup  member tech  iteration 1',
      '│  └─ generation CAUSED_BY_GENERATION (inferred) ← chat m  member tech  route desk>tech  iteration 1  model m  tokens 10 in / 2 out  $0.001000',
      "│     └─ run_input #0 (4 tok) ← the run's input: invoke_workflow desk  run run_j",
      `├─ a link whose attributes were dropped ← [not in these files: span ${'2'.repeat(16)} of trace ${'e'.repeat(32)}: its trace is not there (another run not exported here, or not kept)]`,
      "└─ also, shown above: run_input #0 ← the run's input",
    ]);
  });
});

/**
 * What Jaeger (its Badger store, as deploy/ runs it) gives back of a span: an array attribute as its
 * JSON text; each link a reference with no attribute but `opentracing.ref_type`; and a span with a
 * same-trace link and no parent gets the first such link as its parent.
 */
function asJaegerStoresIt(line: OtlpLine): OtlpLine {
  for (const resource of line.resourceSpans) {
    for (const scope of resource.scopeSpans) {
      scope.spans = scope.spans.map((span) => {
        const links = span.links?.map((link) => ({ ...link, attributes: [{ key: 'opentracing.ref_type', value: { stringValue: 'follows_from' } }] }));
        const first = links?.find((link) => link.traceId === span.traceId);
        const root = (span.parentSpanId ?? '') === '' && first !== undefined;
        const attributes = span.attributes?.map(({ key, value }) => ({ key, value: value.arrayValue ? { stringValue: JSON.stringify(value.arrayValue.values.map(plain)) } : value }));
        return { ...span, ...(attributes ? { attributes } : {}), ...(links ? { links } : {}), ...(root ? { parentSpanId: first.spanId } : {}) };
      });
    }
  }
  return line;
}

function plain(value: OtlpValue): string | number {
  return value.stringValue ?? Number(value.intValue);
}
