/**
 * The packed tarball installed into an empty ESM project, used the way a new user would with plain
 * node (no tsx or esbuild anywhere in the tree): an agent with a tool runs under startTelemetry() and
 * the trace file holds its spans; the main entry loads no SDK package; and the bin runs the demo and
 * the trace view.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consumerProject, type Consumer } from './support/consumer.js';
import { packagesImportedBy } from './support/importGraph.js';

let consumer: Consumer;
beforeAll(async () => {
  consumer = await consumerProject({ name: 'esm', tarball: inject('tarball') });
});
afterAll(() => consumer?.remove());

const AGENT_SCRIPT = `
import { Agent, scripted } from 'footprint-otel';
import { readSpans, startTelemetry } from 'footprint-otel/telemetry';

const telemetry = startTelemetry({ serviceName: 'consumer-esm', fileDirectory: 'agent-telemetry', traceDetail: 'semantic', handleExit: false });
const provider = scripted({
  replies: [{ toolCalls: [{ id: 'call-1', name: 'add', args: { a: 2, b: 3 } }] }, 'The sum is 5.'],
});
const adder = Agent.create({ provider, model: 'm-small', id: 'adder' })
  .system('You add numbers with the add tool.')
  .tool({
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    execute: async ({ a, b }) => String(a + b),
  })
  .build();
const answer = (await adder.run('What is 2 + 3?')).text;
await telemetry.shutdown();
const spans = await readSpans(telemetry.destination.directory);
const nameOf = (id) => spans.find((s) => s.spanId === id)?.name ?? null;
console.log(JSON.stringify({
  answer,
  destination: telemetry.destination.kind,
  traces: new Set(spans.map((s) => s.traceId)).size,
  service: spans[0]?.resource['service.name'],
  spans: spans.map((s) => [s.name, s.parentSpanId ? nameOf(s.parentSpanId) : null]).sort(),
}));
`;

describe('the installed package', () => {
  it('has neither tsx nor esbuild anywhere in the tree, and ships no tests or benchmarks', () => {
    expect([consumer.has('tsx'), consumer.has('esbuild'), consumer.has('footprint-otel/test'), consumer.has('footprint-otel/bench')]).toEqual([false, false, false, false]);
    expect([consumer.has('footprint-otel/dist/index.js'), consumer.has('footprint-otel/dist/index.d.ts'), consumer.has('footprint-otel/LICENSE')]).toEqual([true, true, true]);
  });

  it('runs an agent with a tool under startTelemetry() with plain node, and the trace file holds its spans', async () => {
    expect(await consumer.runScript('agent.mjs', AGENT_SCRIPT)).toEqual({
      answer: 'The sum is 5.',
      destination: 'files',
      traces: 1,
      service: 'consumer-esm',
      spans: [
        ['chat m-small', 'invoke_agent adder'],
        ['chat m-small', 'invoke_agent adder'],
        ['execute_tool add', 'invoke_agent adder'],
        ['invoke_agent adder', null],
      ],
    });
  });

  it('loads no OpenTelemetry SDK package from the main entry; the SDK is for footprint-otel/telemetry', () => {
    const dist = path.join(consumer.dir, 'node_modules', 'footprint-otel', 'dist');
    expect(packagesImportedBy(path.join(dist, 'index.js'))).toEqual(['@opentelemetry/api', '@opentelemetry/semantic-conventions', 'ajv', 'eventsource-parser', 'footprintjs']);
    expect(packagesImportedBy(path.join(dist, 'telemetry', 'index.js'))).toEqual([
      '@opentelemetry/api',
      // shutdown() releases the logger provider NodeSDK registers with the logs API (telemetry/globals.ts)
      '@opentelemetry/api-logs',
      '@opentelemetry/core',
      '@opentelemetry/exporter-metrics-otlp-http',
      '@opentelemetry/otlp-exporter-base',
      '@opentelemetry/otlp-grpc-exporter-base',
      '@opentelemetry/otlp-transformer',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-metrics',
      '@opentelemetry/sdk-node',
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/semantic-conventions',
      // the telemetry entry registers the runtime's instruments (registerInstrument, tracingInstrument), and with
      // them ajv and the providers' event-stream parser
      'ajv',
      'eventsource-parser',
      'footprintjs',
    ]);
    // footprint-otel/mcp alone reaches the MCP SDK's client (an optional peer; the server package is
    // only a type for traceMcpServer), and not the OTel SDK
    expect(packagesImportedBy(path.join(dist, 'mcp', 'index.js'))).toEqual([
      '@modelcontextprotocol/client',
      '@opentelemetry/api',
      '@opentelemetry/semantic-conventions',
      'ajv',
      'eventsource-parser',
      'footprintjs',
    ]);
    // footprint-otel/postgres alone reaches the pg client (an optional peer), and not the OTel SDK
    expect(packagesImportedBy(path.join(dist, 'postgres', 'index.js'))).toEqual([
      '@opentelemetry/api',
      '@opentelemetry/semantic-conventions',
      'ajv',
      'eventsource-parser',
      'footprintjs',
      'pg',
    ]);
  });

  it('declares every package its compiled code imports (the library entries and the CLI)', () => {
    const installed = path.join(consumer.dir, 'node_modules', 'footprint-otel');
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const declared = new Set([...Object.keys(manifest.dependencies!), ...Object.keys(manifest.peerDependencies!)]);
    const imported = ['index.js', 'telemetry/index.js', 'mcp/index.js', 'postgres/index.js', 'cli/main.js'].flatMap((entry) => packagesImportedBy(path.join(installed, 'dist', entry)));
    expect([...new Set(imported)].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('runs `npx footprint-otel demo --runs 3`, then `npx footprint-otel view` shows a stored run', async () => {
    const demo = await consumer.run('npx', ['--no-install', 'footprint-otel', 'demo', '--runs', '3']);
    expect(demo.code).toBe(0);
    // stderr carries the progress bar and the flush notice, nothing else
    const telemetryDir = path.join(consumer.dir, 'telemetry');
    expect(demo.stderr.replace(`flushing telemetry to ${telemetryDir}/, up to 5 s\n`, '')).toMatch(/^(\[[#-]{30}\] [1-3]\/3 \$\d+\.\d{4}\n)+$/);
    expect(demo.stderr.endsWith(`flushing telemetry to ${telemetryDir}/, up to 5 s\n`)).toBe(true);
    expect(demo.stdout).toMatch(/^runs: 3 /m);
    expect(demo.stdout).toContain(`  written to ${telemetryDir}/ (this run: 1 trace file(s), 1 metric file(s))`);
    const list = await consumer.run('npx', ['--no-install', 'footprint-otel', 'view', 'telemetry/', '--list']);
    expect(list.code).toBe(0);
    const runs = list.stdout.trim().split('\n').map((line) => line.split(/\s+/));
    expect(runs.map((fields) => [fields[2], fields[3]])).toEqual(Array(3).fill(['invoke_workflow', 'desk']));
    // with no trace id, view shows the latest run
    const view = await consumer.run('npx', ['--no-install', 'footprint-otel', 'view', 'telemetry/']);
    expect(view.code).toBe(0);
    const [title, root] = view.stdout.split('\n');
    expect(title).toMatch(new RegExp(`^trace ${runs[2]![0]} \\(\\d+ spans\\) from telemetry/$`));
    expect(root).toMatch(/^invoke_workflow desk /);
  });
});
