/**
 * Model-call metrics from a scripted agent with a tool, read back from the real SDK: the GenAI
 * semconv histograms (names, units, value types, spec bucket boundaries, one token record per type
 * per call) and the cost counter, with exactly the catalog's attributes and exact values.
 */
import { ValueType } from '@opentelemetry/api';
import { DataPointType, InstrumentType } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ProviderError, registerInstrument, RunFailedError, scripted } from '../../../src/index.js';
import { DURATION_BUCKETS, METRICS, metricsInstrument, TOKEN_BUCKETS } from '../../../src/otel/metrics/index.js';
import { only, startMeter, type MeterHarness } from '../../support/meter.js';

const PRICING = { 'm-small': { input: 1, output: 2 } };
const lookup = {
  name: 'lookup_invoice',
  description: 'Look up an invoice by id',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  execute: (args: { id: string }) => ({ id: args.id, status: 'paid' }),
};

const LLM = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'scripted',
  'gen_ai.request.model': 'm-small',
  'footprint.agent': 'billing',
};
/** The server of the main run's provider (scripted providers have none; HTTP ones take it from their URL). */
const SERVER = { address: 'models.internal', port: 8443 };
const ON_SERVER = { 'server.address': SERVER.address, 'server.port': SERVER.port };
/** A response came back, naming its model (scripted replies name the requested one). */
const RESPONDED = { 'gen_ai.response.model': 'm-small' };

let meter: MeterHarness;
let unregister: () => void;

beforeAll(async () => {
  meter = startMeter();
  unregister = registerInstrument(metricsInstrument({ semconv: 'both' }));
  const provider = {
    ...scripted({
      replies: [
        { toolCalls: [{ name: 'lookup_invoice', args: { id: 'INV-42' } }], usage: { input: 120, output: 18 } },
        { content: 'INV-42 is paid.', usage: { input: 180, output: 14 }, delayMs: 30 },
      ],
    }),
    server: SERVER,
  };
  const agent = Agent.create({ provider, model: 'm-small', id: 'billing', pricing: PRICING }).tool(lookup).build();
  expect((await agent.run('Was INV-42 paid?')).text).toBe('INV-42 is paid.');
});

afterAll(async () => {
  unregister();
  await meter.shutdown();
});

describe('gen_ai.client.token.usage', () => {
  it('is an int histogram in {token} with the semconv buckets', async () => {
    const metric = (await meter.collect()).metric(METRICS.tokenUsage.name)!;
    expect(metric.descriptor).toMatchObject({ unit: '{token}', type: InstrumentType.HISTOGRAM, valueType: ValueType.INT });
    expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
    for (const point of metric.dataPoints) {
      expect((point.value as { buckets: { boundaries: number[] } }).buckets.boundaries).toEqual([...TOKEN_BUCKETS]);
    }
  });

  it('records input and output once per call, with exactly the catalog attributes', async () => {
    const c = await meter.collect();
    expect(c.series(METRICS.tokenUsage.name)).toHaveLength(2);
    const input = only(c, METRICS.tokenUsage.name, { 'gen_ai.token.type': 'input' });
    const output = only(c, METRICS.tokenUsage.name, { 'gen_ai.token.type': 'output' });
    expect(input.attributes).toEqual({ ...LLM, ...RESPONDED, ...ON_SERVER, 'gen_ai.token.type': 'input' });
    // The catalog's attributes but the two with no value here (no skill graph, no routing composition): left out, never ''.
    const absent = ['footprint.skill', 'footprint.route'];
    expect(Object.keys(input.attributes).sort()).toEqual(METRICS.tokenUsage.attributes.filter((key) => !absent.includes(key)).sort());
    expect(input.histogram).toMatchObject({ count: 2, sum: 300, min: 120, max: 180 });
    expect(output.histogram).toMatchObject({ count: 2, sum: 32, min: 14, max: 18 });
  });
});

describe('gen_ai.client.operation.duration', () => {
  it('is a double histogram in seconds with the semconv buckets, one record per call', async () => {
    const c = await meter.collect();
    const metric = c.metric(METRICS.operationDuration.name)!;
    expect(metric.descriptor).toMatchObject({ unit: 's', type: InstrumentType.HISTOGRAM, valueType: ValueType.DOUBLE });
    const series = only(c, METRICS.operationDuration.name, ON_SERVER);
    expect(series.attributes).toEqual({ ...LLM, ...RESPONDED, ...ON_SERVER });
    expect(series.histogram!.buckets.boundaries).toEqual([...DURATION_BUCKETS]);
    expect(series.histogram!.count).toBe(2);
    // the second reply waited 30 ms: durations are seconds, not milliseconds
    expect(series.histogram!.max).toBeGreaterThanOrEqual(0.029);
    expect(series.histogram!.max).toBeLessThan(5);
  });
});

describe('footprint.llm.cost.usd', () => {
  it('is a double counter in {USD} that adds tokens x price exactly', async () => {
    const c = await meter.collect();
    expect(c.metric(METRICS.llmCost.name)!.descriptor).toMatchObject({
      unit: '{USD}',
      type: InstrumentType.COUNTER,
      valueType: ValueType.DOUBLE,
    });
    const cost = only(c, METRICS.llmCost.name, {});
    expect(cost.attributes).toEqual({
      'gen_ai.request.model': 'm-small',
      'gen_ai.provider.name': 'scripted',
      'footprint.agent': 'billing',
    });
    expect(cost.value).toBeCloseTo((300 * 1 + 32 * 2) / 1_000_000, 15);
  });
});

describe('a response without usage', () => {
  it('records its duration and cost (not priced: 0) but no token usage', async () => {
    const provider = scripted({ name: 'silent', replies: [{ content: 'Hi.', usage: null }] });
    const agent = Agent.create({ provider, model: 'm-small', id: 'billing', pricing: PRICING }).build();
    expect((await agent.run('Hello')).text).toBe('Hi.');

    const c = await meter.collect();
    const silent = { 'gen_ai.provider.name': 'silent' };
    expect(only(c, METRICS.operationDuration.name, silent).attributes).toEqual({ ...LLM, ...RESPONDED, ...silent });
    expect(only(c, METRICS.operationDuration.name, silent).histogram!.count).toBe(1);
    expect(c.series(METRICS.tokenUsage.name, silent)).toEqual([]);
    expect(only(c, METRICS.llmCost.name, silent).value).toBe(0);
  });
});

describe('a failed model call', () => {
  it('records its duration with error.type, no response model and no tokens, and the run as an error', async () => {
    const provider = scripted({
      name: 'flaky',
      replies: [{ error: new ProviderError({ provider: 'flaky', kind: 'http', status: 429, message: 'slow down' }) }],
    });
    const agent = Agent.create({ provider, model: 'm-small', id: 'billing' }).build();
    await expect(agent.run('Hello')).rejects.toBeInstanceOf(RunFailedError);

    const c = await meter.collect();
    const failed = only(c, METRICS.operationDuration.name, { 'gen_ai.provider.name': 'flaky' });
    expect(failed.attributes).toEqual({ ...LLM, 'gen_ai.provider.name': 'flaky', 'error.type': '429' });
    expect(failed.histogram!.count).toBe(1);
    expect(c.series(METRICS.tokenUsage.name, { 'gen_ai.provider.name': 'flaky' })).toEqual([]);
    expect(only(c, METRICS.runs.name, { 'footprint.run.outcome': 'error' }).value).toBe(1);
  });
});
