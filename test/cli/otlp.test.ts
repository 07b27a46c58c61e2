/**
 * The demo with OTEL_EXPORTER_OTLP_ENDPOINT set: with nothing listening there it completes its runs
 * (full summary, no files written), says that nothing was delivered and why, in spans and data
 * points, never that telemetry was sent, and exits 3 (every span lost); with a receiver listening on
 * 127.0.0.1 it sends its traces there (POST /v1/traces, every run a trace; as OTLP JSON, asked for
 * with OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, so this test can read them) and its metrics to
 * /v1/metrics, and its account of exported spans matches what arrived.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, parseSummary, tempDir } from '../support/cli.js';

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

  it('completes the runs, reports every span lost as "connection refused", never "sent", and exits 3', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const result = await cli([], { cwd: temp.dir, env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '500' } });
    expect(result.code).toBe(3);
    expect(parseSummary(result.stdout)).toMatchObject({ runs: 12, outcomes: { ok: 12 } });
    expect(result.stdout).not.toMatch(/sent over|localhost:16686|localhost:3000/);
    const account = /^Telemetry: spans 0 exported, (\d+) lost \(connection refused (\d+)\); metric data points 0 exported, (\d+) lost \(connection refused (\d+)\)$/m.exec(result.stdout);
    expect(account).not.toBeNull();
    expect(account![1]).toBe(account![2]);
    expect(account![3]).toBe(account![4]);
    expect(result.stdout).toContain(`  traces: nothing was delivered to ${endpoint}/v1/traces\n  metrics: nothing was delivered to ${endpoint}/v1/metrics\n`);
    expect(result.stderr.split('\n')).toEqual([
      `flushing telemetry to ${endpoint}, up to 5 s`,
      `warning: telemetry spans lost: 0 exported, ${account![1]} lost (connection refused ${account![1]}); is the collector at ${endpoint}/v1/traces reachable and accepting?`,
      `warning: telemetry metric data points lost: 0 exported, ${account![3]} lost (connection refused ${account![3]}); is the collector at ${endpoint}/v1/metrics reachable and accepting?`,
      'warning: every span of this run was lost; exit status 3',
      '',
    ]);
    expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
  }, 60_000);
});

describe('an OTLP endpoint without a scheme', () => {
  const temp = tempDir('otlp-no-scheme');
  afterAll(() => temp.remove());

  it('is refused in one line on stderr, before any run, with exit status 1', async () => {
    const result = await cli([], { cwd: temp.dir, env: { OTEL_EXPORTER_OTLP_ENDPOINT: '127.0.0.1:4318' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'footprint-otel: OTEL_EXPORTER_OTLP_ENDPOINT "127.0.0.1:4318" has no scheme: write http://127.0.0.1:4318 (or https://127.0.0.1:4318)\n',
    );
    expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
  }, 60_000);
});

describe('an exporter no one can use (OTEL_TRACES_EXPORTER=bogus)', () => {
  const temp = tempDir('otlp-bogus');
  afterAll(() => temp.remove());

  it('is refused in one line naming the variable and its values, before any run, with exit status 1', async () => {
    const result = await cli([], { cwd: temp.dir, env: { OTEL_TRACES_EXPORTER: 'bogus' } });
    expect(result).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'footprint-otel: OTEL_TRACES_EXPORTER="bogus": "bogus" is not an exporter; use otlp, console or none (or a comma list of otlp and console)\n',
    });
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
      expect(result.stderr).toBe(`flushing telemetry to ${receiver.url}, up to 5 s\n`);
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
      expect(result.stdout).toMatch(new RegExp(`^Telemetry: spans ${spans.length} exported, 0 lost; metric data points \\d+ exported, 0 lost$`, 'm'));
      expect(result.stdout).toContain(`  traces: sent over OTLP/HTTP to ${receiver.url}/v1/traces\n  metrics: sent over OTLP/HTTP to ${receiver.url}/v1/metrics\n`);

      const metrics = receiver.requests.filter((r) => r.path === '/v1/metrics');
      expect(new Set(metrics.map((r) => `${r.method} ${r.headers['content-type']}`))).toEqual(new Set(['POST application/x-protobuf']));
      expect(metrics.every((r) => r.body.length > 0)).toBe(true);
      expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
    } finally {
      await receiver.stop();
    }
  }, 60_000);
});
