/**
 * The bridge's small pieces: content capture switch and size cap (valid JSON, marked cuts),
 * traceparent round trips, provider and finish-reason mapping to semconv values, and the detail
 * switch read from the environment.
 */
import fc from 'fast-check';
import { diag, DiagLogLevel, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { boundedJson, captureFromEnv, inputMessages, MAX_CONTENT_CHARS, outputMessages } from '../../../src/otel/encoding/content.js';
import { settle } from '../../../src/otel/wiring/options.js';
import { finishReason, providerName } from '../../../src/otel/encoding/semconv.js';
import { formatTraceparent, parseTraceparent } from '../../../src/otel/encoding/traceparent.js';

describe('content capture switch', () => {
  it('is on only for span modes, in any case', () => {
    const env = (value?: string) => ({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: value });
    for (const on of ['span_only', 'SPAN_ONLY', 'true', 'True', ' span_and_event ']) expect(captureFromEnv(env(on))).toBe(true);
    for (const off of [undefined, '', 'false', 'none', 'NO_CONTENT', 'event_only', '1']) expect(captureFromEnv(env(off))).toBe(false);
  });
});

describe('span_and_event capture mode', () => {
  it('captures on spans and warns once that the structured operation-details event is not emitted', () => {
    const warnings: string[] = [];
    diag.setLogger({ error() {}, warn: (m) => void warnings.push(m), info() {}, debug() {}, verbose() {} }, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
    try {
      const env = { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'SPAN_AND_EVENT' };
      const capture = (e: NodeJS.ProcessEnv) => settle({}, e).capture;
      expect([capture(env), capture(env), capture({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'span_only' })]).toEqual([true, true, true]);
      expect(warnings).toEqual([
        'footprint-otel: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_and_event records content on spans only: the ' +
          'gen_ai.client.inference.operation.details event needs structured attributes (the Logs API), which span events cannot carry',
      ]);
    } finally {
      diag.disable();
    }
  });
});

describe('boundedJson', () => {
  it('leaves small values alone and cuts long strings, marked, keeping valid JSON', () => {
    expect(boundedJson({ a: 'short' })).toBe('{"a":"short"}');
    const text = boundedJson([{ content: 'y'.repeat(20_000) }, { content: 'tail' }]);
    expect(text.length).toBeLessThanOrEqual(MAX_CONTENT_CHARS);
    const parsed = JSON.parse(text) as { content: string }[];
    expect(parsed[0].content).toMatch(/…\[truncated \d+ chars\]$/);
    expect(parsed[1].content).toBe('tail');
  });

  it('falls back to a marked head when even cut strings do not fit', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => ({ i }));
    const text = boundedJson(many, 200);
    expect(text.length).toBeLessThanOrEqual(200);
    expect(JSON.parse(text)).toEqual({ truncated: true, chars: JSON.stringify(many).length, head: expect.stringMatching(/^\[\{"i":0\},\{"i":1\}/) });
  });

  it('is valid JSON within the cap for any input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 64, max: 2_000 }), (value, max) => {
        const text = boundedJson(value, max);
        expect(text.length).toBeLessThanOrEqual(max);
        expect(() => JSON.parse(text)).not.toThrow();
      }),
    );
  });
});

describe('message lists at the cap', () => {
  it('drops whole messages from the middle behind one marker, keeping the first and the latest', () => {
    const history = Array.from({ length: 300 }, (_, i) => ({ role: 'user' as const, content: `message ${i} ${'x'.repeat(40)}` }));
    const text = inputMessages(history);
    expect(text.length).toBeLessThanOrEqual(MAX_CONTENT_CHARS);
    const parsed = JSON.parse(text) as { role: string; parts: { content: string }[] }[];
    const omitted = 300 - (parsed.length - 1);
    expect(parsed[0]).toEqual({ role: 'user', parts: [{ type: 'text', content: history[0].content }] });
    expect(parsed[1]).toEqual({ role: 'system', parts: [{ type: 'text', content: `[${omitted} messages omitted to fit ${MAX_CONTENT_CHARS} chars]` }] });
    expect(parsed.slice(2).map((m) => m.parts[0].content)).toEqual(history.slice(300 - (parsed.length - 2)).map((m) => m.content));
  });

  it('thins the parts of a single message too long to fit, and keeps its finish_reason', () => {
    const calls = Array.from({ length: 400 }, (_, i) => ({ id: `call-${i}`, name: 'lookup_invoice' }));
    const parsed = JSON.parse(outputMessages('', calls, 'tool_use')) as { role: string; parts: { type: string; id?: string; content?: string }[]; finish_reason: string }[];
    expect(parsed).toHaveLength(1);
    expect(parsed[0].finish_reason).toBe('tool_call');
    const parts = parsed[0].parts;
    expect(parts[0]).toEqual({ type: 'tool_call', id: 'call-0', name: 'lookup_invoice' });
    expect(parts[1]).toEqual({ type: 'text', content: `[${400 - (parts.length - 1)} parts omitted to fit ${MAX_CONTENT_CHARS} chars]` });
    expect(parts[parts.length - 1]).toEqual({ type: 'tool_call', id: 'call-399', name: 'lookup_invoice' });
  });
});

describe('traceparent', () => {
  it('round-trips a span context as a remote parent', () => {
    const context = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
    const header = formatTraceparent(context);
    expect(header).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    expect(parseTraceparent(header, 'vendor=x')).toEqual({ ...context, isRemote: true, traceState: expect.anything() });
    expect(parseTraceparent(header, 'vendor=x')!.traceState!.get('vendor')).toBe('x');
  });

  it('refuses what is not a valid traceparent', () => {
    for (const bad of [undefined, 42, '', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331', `00-${'0'.repeat(32)}-b7ad6b7169203331-01`, 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01']) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
  });
});

describe('semconv mapping', () => {
  it('maps provider names to the well-known values', () => {
    expect(providerName('openai')).toBe('openai');
    expect(providerName('Anthropic')).toBe('anthropic');
    expect(providerName('bedrock')).toBe('aws.bedrock');
    expect(providerName('azure-openai')).toBe('azure.ai.openai');
    expect(providerName('gemini')).toBe('gcp.gemini');
    expect(providerName('mistral')).toBe('mistral_ai');
    expect(providerName('xai')).toBe('x_ai');
    expect(providerName('ollama')).toBe('ollama');
  });

  it('maps stop reasons to finish reasons', () => {
    expect(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'content_filter', 'error', 'other'].map(finishReason)).toEqual([
      'stop',
      'tool_call',
      'length',
      'stop',
      'content_filter',
      'error',
      'other',
    ]);
  });
});

describe('settings', () => {
  it('take detail from the option, else FOOTPRINT_OTEL_DETAIL, else full', () => {
    const detail = (option: 'full' | 'semantic' | undefined, env: NodeJS.ProcessEnv) => settle({ detail: option }, env).detail;
    expect(detail('semantic', { FOOTPRINT_OTEL_DETAIL: 'full' })).toBe('semantic');
    expect(detail(undefined, { FOOTPRINT_OTEL_DETAIL: 'Semantic' })).toBe('semantic');
    expect(detail(undefined, {})).toBe('full');
    expect(detail(undefined, { FOOTPRINT_OTEL_DETAIL: 'verbose' })).toBe('full');
  });

  it('take content capture from the option, else the GenAI variable, else off', () => {
    const on = { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'span_only' };
    expect([settle({ captureContent: false }, on).capture, settle({}, on).capture, settle({}, {}).capture]).toEqual([false, true, false]);
  });
});
