/**
 * `footprint-otel demo --mcp` with no endpoint: the billing agent's lookup_invoice is served by the MCP
 * server process the demo starts, both processes write their session files into the same telemetry
 * folder, and the demo's waterfall (and `view`) shows the joined trace: the server's span, marked with
 * its service, under the agent's MCP client span.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readSpans } from '../../src/telemetry/index.js';
import { runDemo } from '../support/stack/clients.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'footprint-mcp-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('one trace across the demo and its MCP server, in the shared telemetry folder and in the waterfall', async () => {
  const run = await runDemo({ args: ['--mcp', '--ticket', 'Please send me a copy of my last invoice'], env: { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_SERVICE_NAME: 'desk-demo' }, cwd: dir });
  expect(run.exitCode).toBe(0);
  // the summary says the tool went over MCP (in load mode too: the heading is the same)
  expect(run.stdout).toContain('\nSupport desk (scripted models, seed 42, lookup_invoice over MCP (stdio)):\n');
  // the waterfall: the client span's line, then the server span's under it, marked with its service; this
  // ticket's invoice is one the books lack, which the server reports as the tool's error (isError)
  expect(run.stdout).toMatch(/^( +)tools\/call lookup_invoice .*\n\1  tools\/call lookup_invoice .*  \[footprint-otel-desk-tools\]  ERROR: the tool reported an error \(isError\)$/m);
  // two session files, one per process, and one trace holding both services with the server span under the client span
  const telemetry = path.join(dir, 'telemetry');
  expect(readdirSync(telemetry).filter((f) => f.startsWith('traces-')).length).toBe(2);
  const spans = await readSpans(telemetry);
  const server = spans.find((s) => s.name === 'tools/call lookup_invoice' && s.resource['service.name'] === 'footprint-otel-desk-tools')!;
  const clientSpan = spans.find((s) => s.spanId === server.parentSpanId)!;
  expect([clientSpan.name, clientSpan.resource['service.name'], clientSpan.traceId]).toEqual(['tools/call lookup_invoice', 'desk-demo', server.traceId]);
  const execute = spans.find((s) => s.spanId === clientSpan.parentSpanId)!;
  expect(execute.name).toBe('execute_tool lookup_invoice');
}, 120_000);
