/**
 * The demo with OTEL_EXPORTER_OTLP_ENDPOINT set: with nothing listening there it warns on stderr
 * that exports failed and still completes (exit 0, full summary, no files written); with a receiver
 * listening on 127.0.0.1 it sends its traces there (POST /v1/traces, every run a trace; as OTLP JSON,
 * asked for with OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, so this test can read them) and its metrics to
 * /v1/metrics.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, parseSummary, tempDir } from './helpers.js';

interface Request {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An OTLP/HTTP receiver on 127.0.0.1 that records every request and answers 200. */
async function startReceiver(): Promise<{ url: string; requests: Request[]; stop: () => Promise<void> }> {
  const requests: Request[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      const json = req.headers['content-type'] === 'application/json';
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was just bound and released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('an unreachable OTLP endpoint', () => {
  const temp = tempDir('otlp-down');
  afterAll(() => temp.remove());

  it('gets a warning on stderr, and the demo still completes with exit code 0', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const result = await cli([], { cwd: temp.dir, env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '500' } });
    expect(result.code).toBe(0);
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 12, outcomes: { ok: 12 } });
    expect(result.stdout).toContain(`Telemetry sent over OTLP/HTTP: ${endpoint}/v1/traces, ${endpoint}/v1/metrics`);
    expect(result.stderr).toMatch(
      new RegExp(`^warning: \\d+ telemetry export\\(s\\) failed .*is the collector at ${endpoint.replace(/[.]/g, '\\.')}/v1/traces reachable\\?$`, 'm'),
    );
    expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
  }, 60_000);
});

describe('a live OTLP receiver', () => {
  const temp = tempDir('otlp-up');
  afterAll(() => temp.remove());

  it('receives the traces of every run over POST /v1/traces, and the metrics', async () => {
    const receiver = await startReceiver();
    try {
      const result = await cli([], { cwd: temp.dir, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' } });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(parseSummary(result.stdout).runs).toBe(12);

      const traces = receiver.requests.filter((r) => r.path === '/v1/traces');
      expect(traces.length).toBeGreaterThan(0);
      const spans: { traceId: string; parentSpanId?: string; name: string }[] = [];
      for (const request of traces) {
        expect(request.method).toBe('POST');
        expect(request.headers['content-type']).toBe('application/json');
        const body = JSON.parse(request.body.toString('utf8')) as {
          resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: typeof spans }[] }[];
        };
        for (const rs of body.resourceSpans) {
          expect(rs.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'footprint-otel-demo' } });
          for (const ss of rs.scopeSpans) spans.push(...ss.spans);
        }
      }
      const roots = spans.filter((s) => !s.parentSpanId);
      expect(roots).toHaveLength(12);
      expect(new Set(roots.map((s) => s.traceId)).size).toBe(12);
      expect(roots.every((s) => s.name === 'invoke_workflow desk')).toBe(true);
      expect(spans.filter((s) => s.name.startsWith('chat ')).length).toBe(parseSummary(result.stdout).llmCalls);

      const metrics = receiver.requests.filter((r) => r.path === '/v1/metrics');
      expect(metrics.length).toBeGreaterThan(0);
      expect(metrics.every((r) => r.method === 'POST' && r.body.length > 0)).toBe(true);
      expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
    } finally {
      await receiver.stop();
    }
  }, 60_000);
});
