/**
 * The checker itself, on telemetry made by hand with the real SDK (no bridge): each rule must fire
 * with a line naming the span or metric, the attribute and the rule, and conforming data must pass.
 */
import { metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTelemetry, startSemconvTelemetry, type SemconvTelemetry } from '../support/semconv/index.js';

let telemetry: SemconvTelemetry;

beforeEach(() => {
  telemetry = startSemconvTelemetry({});
});

afterEach(async () => {
  await telemetry.shutdown();
});

// trace.getTracer() takes no options; the provider's getTracer carries the schema URL.
const tracer = () => trace.getTracerProvider().getTracer('by-hand', '1.0.0', { schemaUrl: 'https://opentelemetry.io/schemas/1.41.0' });
const CHAT = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'm1' };

describe('the v1.41 conformance checker', () => {
  it('passes a conforming chat span whose data it is told about', () => {
    tracer()
      .startSpan('chat m1', { kind: SpanKind.CLIENT, attributes: { ...CHAT, 'gen_ai.usage.input_tokens': 12, 'gen_ai.response.finish_reasons': ['stop'] } })
      .end();
    const lines = checkTelemetry({
      spans: telemetry.spans(),
      startOf: telemetry.startOf,
      availableOnSpan: () => ['gen_ai.request.model', 'gen_ai.usage.input_tokens', 'gen_ai.response.finish_reasons'],
    });
    expect(lines).toEqual([]);
  });

  it('names kind, name, missing, unexpected, type, enum, deprecated, schema and error.type problems', () => {
    const span = tracer().startSpan('chat', {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'm1',
        'gen_ai.system': 'openai',
        'gen_ai.usage.input_tokens': '12',
        'gen_ai.response.finish_reasons': ['done'],
        'gen_ai.input.messages': '{"role":"user"}',
        'gen_ai.made_up': 1,
      },
    });
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.recordException({ name: '429', message: 'rate limited' });
    span.end();
    const lines = checkTelemetry({ spans: telemetry.spans(), availableOnSpan: () => ['gen_ai.request.model', 'gen_ai.conversation.id'] });
    const at = 'span "chat" [span.gen_ai.inference.client]';
    expect(lines).toEqual(
      [
        `${at} event "exception" · exception.type · is a status code (429), not the exception's type`,
        `${at} · error.type · missing: conditionally required (the span ended in an error)`,
        `${at} · gen_ai.conversation.id · missing: conditionally required and the data exists`,
        `${at} · gen_ai.input.messages · fails the v1.41 JSON schema: / must be array`,
        `${at} · gen_ai.input.messages · set though the scenario has no data for it (opt in)`,
        `${at} · gen_ai.made_up · not defined in the v1.41 registry`,
        `${at} · gen_ai.provider.name · missing: required`,
        `${at} · gen_ai.response.finish_reasons · set though the scenario has no data for it (recommended)`,
        `${at} · gen_ai.response.finish_reasons · values ["done"] are not FinishReason values ["stop","length","content_filter","tool_call","error"]`,
        `${at} · gen_ai.system · deprecated in v1.41`,
        `${at} · gen_ai.usage.input_tokens · must be an int, is "12"`,
        `${at} · gen_ai.usage.input_tokens · set though the scenario has no data for it (recommended)`,
        `${at} · span kind must be client, is internal`,
        `${at} · span name must be "chat m1"`,
      ].sort(),
    );
  });

  it('flags sampling-relevant attributes and names set after the span started', () => {
    const span = tracer().startSpan('agent', { attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
    span.updateName('invoke_agent A');
    span.setAttributes({ 'gen_ai.agent.name': 'A', 'gen_ai.provider.name': 'openai' });
    span.end();
    const lines = checkTelemetry({ spans: telemetry.spans(), startOf: telemetry.startOf, availableOnSpan: () => ['gen_ai.agent.name'] });
    const at = 'span "invoke_agent A" [span.gen_ai.invoke_agent.internal]';
    expect(lines).toEqual([`${at} · gen_ai.provider.name · sampling-relevant but not set at span start`, `${at} · started as "agent", renamed later`]);
  });

  it('checks a GenAI metric: instrument, unit, value type, buckets, attributes and the meter scope', async () => {
    const meter = metrics.getMeter('by-hand');
    meter.createCounter('gen_ai.client.token.usage', { unit: 'tokens' }).add(3, { 'gen_ai.operation.name': 'chat', 'gen_ai.token.type': 'completion' });
    meter.createHistogram('gen_ai.client.operation.duration', { unit: 's', advice: { explicitBucketBoundaries: [1, 2] } }).record(0.5, { ...CHAT, 'server.port': 443 });
    const lines = checkTelemetry({ spans: [], availableOnSpan: () => [], metrics: await telemetry.collectMetrics(), availableOnPoint: () => ['gen_ai.request.model'] });
    const usage = 'metric gen_ai.client.token.usage {"gen_ai.operation.name":"chat","gen_ai.token.type":"completion"}';
    const duration = `metric gen_ai.client.operation.duration ${JSON.stringify({ ...CHAT, 'server.port': 443 })}`;
    expect(lines).toEqual(
      [
        'meter scope "by-hand" · has no version',
        'meter scope "by-hand" · schema URL must be https://opentelemetry.io/schemas/1.41.0, is undefined',
        'metric gen_ai.client.token.usage · instrument must be histogram, is counter',
        'metric gen_ai.client.token.usage · unit must be {token}, is tokens',
        'metric gen_ai.client.token.usage · value type must be int',
        `${usage} · gen_ai.provider.name · missing: required`,
        `${usage} · gen_ai.request.model · missing: conditionally required and the data exists`,
        `${usage} · gen_ai.token.type · value "completion" is not a well-known value (input, output)`,
        `${duration} · bucket boundaries must be [0.01,0.02,0.04,0.08,0.16,0.32,0.64,1.28,2.56,5.12,10.24,20.48,40.96,81.92]`,
        `${duration} · server.port · set without server.address`,
      ].sort(),
    );
  });

  it('judges the metrics merged since v1.41 by the pinned development model: its units, buckets, requirement levels and schema URL', async () => {
    const DEV = 'https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev';
    const dev = metrics.getMeterProvider().getMeter('dev', '1.0.0', { schemaUrl: DEV });
    dev
      .createHistogram('gen_ai.invoke_agent.tool_calls', { unit: '{call}', advice: { explicitBucketBoundaries: [1, 2, 4, 8, 16, 32, 64, 128] } })
      .record(3, { 'gen_ai.agent.name': 'A' });
    dev.createHistogram('gen_ai.execute_tool.duration', { unit: 's', advice: { explicitBucketBoundaries: [1] } }).record(0.1, { 'gen_ai.tool.type': 'function' });
    // A development-channel metric on a v1.41 scope, beside a v1.41 one: the scope cannot name both.
    const mixed = metrics.getMeterProvider().getMeter('mixed', '1.0.0', { schemaUrl: 'https://opentelemetry.io/schemas/1.41.0' });
    mixed
      .createHistogram('gen_ai.workflow.duration', { unit: 's', advice: { explicitBucketBoundaries: [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200] } })
      .record(2, { 'gen_ai.workflow.name': 'desk' });
    mixed.createHistogram('gen_ai.client.operation.duration', { unit: 's', advice: { explicitBucketBoundaries: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92] } }).record(0.5, CHAT);
    const available = (metric: string): readonly string[] =>
      metric === 'gen_ai.client.operation.duration' ? ['gen_ai.request.model'] : ['gen_ai.agent.name', 'gen_ai.tool.type', 'gen_ai.workflow.name'];
    const lines = checkTelemetry({ spans: [], availableOnSpan: () => [], metrics: await telemetry.collectMetrics(), availableOnPoint: available });
    const tool = 'metric gen_ai.execute_tool.duration {"gen_ai.tool.type":"function"}';
    expect(lines).toEqual(
      [
        'meter scope "mixed" · mixes metrics of several conventions (https://opentelemetry.io/schemas/1.41.0, https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev)',
        'metric gen_ai.invoke_agent.tool_calls · unit must be {tool_call}, is {call}',
        'metric gen_ai.invoke_agent.tool_calls · value type must be int',
        `${tool} · bucket boundaries must be [0.01,0.02,0.04,0.08,0.16,0.32,0.64,1.28,2.56,5.12,10.24,20.48,40.96,81.92]`,
        `${tool} · gen_ai.agent.name · missing: conditionally required and the data exists`,
        `${tool} · gen_ai.tool.name · missing: required`,
      ].sort(),
    );
  });
});

describe('the current-model checker (spanModel: current)', () => {
  const current = () => trace.getTracerProvider().getTracer('by-hand', '1.0.0', { schemaUrl: 'https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev' });

  it('passes a skill load named by its skill, and an agent span without the attributes the model removed', () => {
    current()
      .startSpan('execute_tool read_skill billing', {
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_skill', 'gen_ai.skill.name': 'billing' },
      })
      .end();
    current()
      .startSpan('invoke_agent Desk', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Desk' } })
      .end();
    const lines = checkTelemetry({ spans: telemetry.spans(), startOf: telemetry.startOf, spanModel: 'current', availableOnSpan: (span) => (span.name.startsWith('execute_tool') ? ['gen_ai.skill.name'] : ['gen_ai.agent.name']) });
    expect(lines).toEqual([]);
  });

  it('names what the current model removed or renamed, and the v1.41 schema URL', () => {
    trace
      .getTracerProvider()
      .getTracer('by-hand', '1.0.0', { schemaUrl: 'https://opentelemetry.io/schemas/1.41.0' })
      .startSpan('execute_tool read_skill', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_skill', 'gen_ai.skill.name': 'billing' } })
      .end();
    current()
      .startSpan('invoke_agent Desk', {
        attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Desk', 'gen_ai.agent.id': 'desk', 'gen_ai.provider.name': 'openai' },
      })
      .end();
    const lines = checkTelemetry({ spans: telemetry.spans(), spanModel: 'current', availableOnSpan: (span) => (span.name.startsWith('execute_tool') ? ['gen_ai.skill.name'] : ['gen_ai.agent.name']) });
    expect(lines).toEqual([
      'span "execute_tool read_skill" [span.gen_ai.execute_tool.load_skill.internal] · span name must be "execute_tool read_skill billing"',
      'span "invoke_agent Desk" [span.gen_ai.invocation.internal] · gen_ai.agent.id · not an attribute of this span type in the current model',
      'span "invoke_agent Desk" [span.gen_ai.invocation.internal] · gen_ai.provider.name · not an attribute of this span type in the current model',
      'tracer scope "by-hand" · schema URL must be https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev, is https://opentelemetry.io/schemas/1.41.0',
    ]);
  });

  it("judges metrics by the current model: its names (v1.41's and the fe5608e channel's are not), required attributes, buckets and schema URL", async () => {
    const DEV = 'https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev';
    const meter = metrics.getMeterProvider().getMeter('now', '1.0.0', { schemaUrl: DEV });
    const AGENT_BUCKETS = [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6];
    // A conforming point, and one without the required gen_ai.invocation.is_nested, on the wrong buckets.
    const invocation = meter.createHistogram('gen_ai.invocation.duration', { unit: 's', advice: { explicitBucketBoundaries: AGENT_BUCKETS } });
    invocation.record(1, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.invocation.is_nested': false, 'gen_ai.agent.name': 'A' });
    meter.createHistogram('gen_ai.client.inference.duration', { unit: 's', advice: { explicitBucketBoundaries: [1] } }).record(0.5, CHAT);
    // The names the default mode no longer records.
    meter.createHistogram('gen_ai.invoke_agent.duration', { unit: 's', advice: { explicitBucketBoundaries: AGENT_BUCKETS } }).record(1, { 'gen_ai.agent.name': 'A' });
    meter.createHistogram('gen_ai.workflow.duration', { unit: 's' }).record(1, { 'gen_ai.workflow.name': 'desk' });
    const available = (metric: string): readonly string[] => (metric === 'gen_ai.client.inference.duration' ? ['gen_ai.request.model'] : ['gen_ai.agent.name']);
    const lines = checkTelemetry({ spans: [], availableOnSpan: () => [], metrics: await telemetry.collectMetrics(), availableOnPoint: available, spanModel: 'current' });
    expect(lines).toEqual(
      [
        'metric gen_ai.invoke_agent.duration · not a metric of the current model',
        'metric gen_ai.workflow.duration · not a metric of the current model',
        `metric gen_ai.client.inference.duration ${JSON.stringify(CHAT)} · bucket boundaries must be [0.01,0.02,0.04,0.08,0.16,0.32,0.64,1.28,2.56,5.12,10.24,20.48,40.96,81.92]`,
      ].sort(),
    );
    invocation.record(2, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'B' });
    const missing = checkTelemetry({ spans: [], availableOnSpan: () => [], metrics: await telemetry.collectMetrics(), availableOnPoint: available, spanModel: 'current' });
    expect(missing).toContain('metric gen_ai.invocation.duration {"gen_ai.operation.name":"invoke_agent","gen_ai.agent.name":"B"} · gen_ai.invocation.is_nested · missing: required');
  });

  it("judges span events by the current model's events: a gen_ai.* name it lacks, and its required attributes", () => {
    const span = current().startSpan('invoke_agent Desk', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Desk' } });
    span.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.score.value': 0.9 });
    span.addEvent('gen_ai.content.prompt');
    span.end();
    const lines = checkTelemetry({ spans: telemetry.spans(), spanModel: 'current', availableOnSpan: () => ['gen_ai.agent.name'] });
    expect(lines).toEqual([
      'span "invoke_agent Desk" [span.gen_ai.invocation.internal] event "gen_ai.content.prompt" · not an event of the model',
      'span "invoke_agent Desk" [span.gen_ai.invocation.internal] event "gen_ai.evaluation.result" · gen_ai.evaluation.name · missing: required',
    ]);
  });
});
