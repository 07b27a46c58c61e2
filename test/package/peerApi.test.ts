/**
 * An app that runs its own NodeSDK, on a different patch release of @opentelemetry/api than the one
 * this repository develops against (1.9.0 against 1.9.1), imports footprint-otel's main entry only and
 * registers its tracing instrument (importing registers nothing, docs/api.md): the API is a peer
 * dependency, so the tree holds one copy of it, the agent's spans reach the app's exporter, and
 * nothing is registered twice (no diag error or warning).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consumerProject, type Consumer } from './support/consumer.js';

let consumer: Consumer;
beforeAll(async () => {
  consumer = await consumerProject({
    name: 'own-sdk',
    tarball: inject('tarball'),
    packages: ['@opentelemetry/api@1.9.0', '@opentelemetry/sdk-node@0.223.0'],
  });
});
afterAll(() => consumer?.remove());

const APP = `
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';

const complaints = [];
const collect = (...args) => void complaints.push(args.join(' '));
diag.setLogger({ error: collect, warn: collect, info() {}, debug() {}, verbose() {} }, DiagLogLevel.WARN);

const exporter = new tracing.InMemorySpanExporter();
const sdk = new NodeSDK({ serviceName: 'the-app', spanProcessors: [new tracing.SimpleSpanProcessor(exporter)], metricReaders: [], logRecordProcessors: [] });
sdk.start();

const { Agent, registerInstrument, scripted, tracingInstrument } = await import('footprint-otel');
registerInstrument(tracingInstrument());
const agent = Agent.create({ provider: scripted({ replies: ['Hello from the agent.'] }), model: 'm-small', id: 'greeter' }).build();
const answer = (await agent.run('Hi')).text;
const spans = exporter.getFinishedSpans();
console.log(JSON.stringify({
  answer,
  traces: new Set(spans.map((s) => s.spanContext().traceId)).size,
  semantic: spans.map((s) => s.name).filter((n) => /^(invoke_agent|chat) /.test(n)).sort(),
  service: spans[0]?.resource.attributes['service.name'],
  complaints,
}));
await sdk.shutdown();
`;

describe('an app with its own NodeSDK and another patch release of the API', () => {
  it('has one copy of @opentelemetry/api in the tree: the app\'s 1.9.0', async () => {
    const query = await consumer.run('npm', ['query', '[name="@opentelemetry/api"]']);
    expect(query.code).toBe(0);
    expect((JSON.parse(query.stdout) as { version: string; location: string }[]).map((p) => [p.location, p.version])).toEqual([
      ['node_modules/@opentelemetry/api', '1.9.0'],
    ]);
  });

  it('gets the agent\'s spans in its own exporter, with nothing registered twice', async () => {
    expect(await consumer.runScript('app.mjs', APP)).toEqual({
      answer: 'Hello from the agent.',
      traces: 1,
      semantic: ['chat m-small', 'invoke_agent greeter'],
      service: 'the-app',
      complaints: [],
    });
  });
});
