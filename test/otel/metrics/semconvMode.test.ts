/**
 * The migration switch (src/otel/encoding/semconvMode.ts): OTEL_SEMCONV_STABILITY_OPT_IN's values,
 * and the token metrics a scripted call records in each mode, read back from the real SDK: the
 * current model's counters by default, v1.41's histogram in 'v1.41', and in 'both' each under its
 * own name exactly once (the same 120 + 18 tokens, so a dashboard summing one name never counts twice).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, registerInstrument, scripted } from '../../../src/index.js';
import { semconvModeFromEnv, type SemconvMode } from '../../../src/otel/encoding/index.js';
import { metricsInstrument } from '../../../src/otel/metrics/index.js';
import { startMeter, type MeterHarness } from '../../support/meter.js';

describe('OTEL_SEMCONV_STABILITY_OPT_IN', () => {
  it.each([
    [undefined, 'current'],
    ['', 'current'],
    ['gen_ai_latest_experimental', 'current'],
    ['http, gen_ai_latest_experimental/dup', 'both'],
    ['gen_ai_v1.41', 'v1.41'],
    ['GEN_AI_V1.41,http/dup', 'v1.41'],
    ['gen_ai_v1.41,gen_ai_latest_experimental/dup', 'both'],
    ['database', 'current'],
  ])('%j chooses %s', (value, mode) => {
    expect(semconvModeFromEnv(value === undefined ? {} : { OTEL_SEMCONV_STABILITY_OPT_IN: value })).toBe(mode);
  });
});

const CALL = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'scripted',
  'gen_ai.request.model': 'm',
  'gen_ai.response.model': 'm',
  'footprint.agent': 'a',
};

let meter: MeterHarness | undefined;
let unregister = () => {};
afterEach(async () => {
  unregister();
  await meter?.shutdown();
});

async function tokenSeries(mode: SemconvMode | undefined) {
  meter = startMeter();
  unregister = registerInstrument(metricsInstrument(mode === undefined ? {} : { semconv: mode }));
  const replies = [{ content: 'ok', usage: { input: 120, output: 18, cacheRead: 100, reasoning: 6 } }];
  await Agent.create({ provider: scripted({ replies }), model: 'm', id: 'a' }).build().run('hi');
  const c = await meter.collect();
  const names = c.names().filter((name) => name.includes('token'));
  return Object.fromEntries(names.map((name) => [name, c.series(name).map((s) => [s.attributes, s.value])]));
}

const TEXT = { ...CALL, 'gen_ai.token.modality': 'text' };
const CURRENT = {
  'gen_ai.client.inference.usage.cache_read.input_tokens': [[TEXT, 100]],
  'gen_ai.client.inference.usage.input_tokens': [[TEXT, 120]],
  'gen_ai.client.inference.usage.output_tokens': [[TEXT, 18]],
  'gen_ai.client.inference.usage.reasoning.output_tokens': [[TEXT, 6]],
};
const V1_41 = {
  'gen_ai.client.token.usage': [
    [{ ...CALL, 'gen_ai.token.type': 'input' }, 120],
    [{ ...CALL, 'gen_ai.token.type': 'output' }, 18],
  ],
};

describe('the token metrics of each mode', () => {
  it('default (current): the inference usage counters only', async () => {
    expect(await tokenSeries(undefined)).toEqual(CURRENT);
  });
  it("'v1.41': the token histogram only", async () => {
    expect(await tokenSeries('v1.41')).toEqual(V1_41);
  });
  it("'both': each once under each name", async () => {
    expect(await tokenSeries('both')).toEqual({ ...CURRENT, ...V1_41 });
  });
});

/** The duration metrics a scripted agent's one call records in `mode`, by name: [attributes, count] per series. */
async function durationSeries(mode: SemconvMode | undefined) {
  meter = startMeter();
  unregister = registerInstrument(metricsInstrument(mode === undefined ? {} : { semconv: mode }));
  await Agent.create({ provider: scripted({ replies: ['ok'] }), model: 'm', id: 'a', name: 'A' }).build().run('hi');
  const c = await meter.collect();
  const names = c.names().filter((name) => name.endsWith('.duration') && name.startsWith('gen_ai.'));
  return Object.fromEntries(names.map((name) => [name, c.series(name).map((s) => [s.attributes, s.histogram!.count])]));
}

const AGENT = { 'gen_ai.agent.name': 'A', 'footprint.agent': 'a' };
// metrics.yaml at e9de14b: gen_ai.client.inference.duration for model calls (#521), gen_ai.invocation.duration for agents (#571).
const CURRENT_DURATIONS = {
  'gen_ai.client.inference.duration': [[CALL, 1]],
  'gen_ai.invocation.duration': [[{ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.invocation.is_nested': false, ...AGENT }, 1]],
};
const V1_41_DURATIONS = {
  'gen_ai.client.operation.duration': [[CALL, 1]],
  'gen_ai.invoke_agent.duration': [[AGENT, 1]],
};

describe('the duration metrics of each mode', () => {
  it('default (current): gen_ai.client.inference.duration and gen_ai.invocation.duration only', async () => {
    expect(await durationSeries(undefined)).toEqual(CURRENT_DURATIONS);
  });
  it("'v1.41': gen_ai.client.operation.duration and gen_ai.invoke_agent.duration only", async () => {
    expect(await durationSeries('v1.41')).toEqual(V1_41_DURATIONS);
  });
  it("'both': each call and invocation once under each name", async () => {
    expect(await durationSeries('both')).toEqual({ ...CURRENT_DURATIONS, ...V1_41_DURATIONS });
  });
});
