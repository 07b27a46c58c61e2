/**
 * Replies the providers document that the adapters once lost: a refusal (Chat Completions'
 * `message.refusal` / `delta.refusal`, the Responses API's `refusal` content part and
 * `response.refusal.delta`) is the answer's text and stops with content_filter; a Gemini
 * usageMetadata without candidatesTokenCount (proto3 JSON leaves a 0 out: a blocked prompt, a
 * MAX_TOKENS stop spent thinking) is usage with 0 candidates; a streamed blocked prompt stops with
 * content_filter as complete() does; a Responses `response.failed` with code rate_limit_exceeded is
 * retryable.
 */
import { describe, expect, it } from 'vitest';
import { anthropic, gemini, openaiCompatible, openaiResponses, type LLMProvider, type LLMRequest } from '../../../src/runtime/providers/index.js';
import { openaiUsage } from './openaiWire.js';
import { failureOf, wireServerPerTest } from './perTest.js';
import { assembled, drain, sse } from './streaming.js';
import { sendJson, writeBody } from './wireServer.js';
import { finishReason } from '../../../src/otel/encoding/semconv.js';

const serve = wireServerPerTest();
const PING: LLMRequest = { model: 'test-model', messages: [{ role: 'user', content: 'ping' }] };
const REFUSAL = "I'm sorry, I can't help with that.";

describe('openaiCompatible refusals', () => {
  const completion = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: REFUSAL, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: openaiUsage({ prompt: 20, completion: 9 }),
  };
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-2024-08-06', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });

  it('complete(): the refusal text is the content and the stop reason content_filter', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, completion));
    const response = await openaiCompatible({ baseURL: server.url }).complete(PING);
    expect({ content: response.content, stopReason: response.stopReason }).toEqual({ content: REFUSAL, stopReason: 'content_filter' });
  });

  it('stream(): delta.refusal pieces are text parts, and the finish is content_filter', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [chunk({ role: 'assistant', content: null, refusal: '' }), chunk({ refusal: "I'm sorry, " }), chunk({ refusal: "I can't help with that." }), chunk({}, 'stop'), 'data: [DONE]\n\n']),
    );
    const { parts, error } = await drain(openaiCompatible({ baseURL: server.url }).stream!(PING));
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'text', delta: "I'm sorry, " },
      { type: 'text', delta: "I can't help with that." },
      { type: 'finish', stopReason: 'content_filter', model: 'gpt-4o-2024-08-06', id: 'chatcmpl-1' },
    ]);
  });
});

describe('openaiResponses refusals', () => {
  const usage = { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 29 };
  const response = (status: string, output: unknown[]) => ({ id: 'resp_1', object: 'response', status, error: null, incomplete_details: null, model: 'gpt-4o-2024-08-06', output, usage });
  const refused = { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: REFUSAL }] };
  const event = (type: string, fields: Record<string, unknown>, sequence: number) => sse({ type, sequence_number: sequence, ...fields }, type);

  it('complete(): a refusal content part is the content and the stop reason content_filter', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, response('completed', [refused])));
    const answer = await openaiResponses({ baseURL: server.url }).complete(PING);
    expect({ content: answer.content, stopReason: answer.stopReason }).toEqual({ content: REFUSAL, stopReason: 'content_filter' });
  });

  it('stream(): response.refusal.delta events are text parts, and the finish is content_filter', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [
        event('response.created', { response: { ...response('in_progress', []), usage: null } }, 0),
        event('response.output_item.added', { output_index: 0, item: { ...refused, status: 'in_progress', content: [] } }, 1),
        event('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: '' } }, 2),
        event('response.refusal.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: "I'm sorry, " }, 3),
        event('response.refusal.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: "I can't help with that." }, 4),
        event('response.refusal.done', { item_id: 'msg_1', output_index: 0, content_index: 0, refusal: REFUSAL }, 5),
        event('response.completed', { response: response('completed', [refused]) }, 6),
      ]),
    );
    const { parts, error } = await drain(openaiResponses({ baseURL: server.url }).stream!(PING));
    expect(error).toBeUndefined();
    expect(assembled('openai', parts)).toEqual({
      content: REFUSAL,
      toolCalls: [],
      stopReason: 'content_filter',
      usage: { input: 20, output: 9, cacheRead: 0, reasoning: 0 },
      model: 'gpt-4o-2024-08-06',
      id: 'resp_1',
    });
  });

  it('a response.failed with code rate_limit_exceeded is a retryable stream_error', async () => {
    const server = await serve((_req, res) =>
      void writeBody(res, [event('response.failed', { response: { ...response('failed', []), error: { code: 'rate_limit_exceeded', message: 'Slow down' } } }, 0)]),
    );
    const { error } = await drain(openaiResponses({ baseURL: server.url }).stream!(PING));
    expect({ kind: error?.kind, retryable: error?.retryable }).toEqual({ kind: 'stream_error', retryable: true });
  });
});

describe('gemini replies with nothing generated', () => {
  it('MAX_TOKENS spent thinking (no content, no candidatesTokenCount): usage counts the thinking tokens as output', async () => {
    const answer = {
      candidates: [{ finishReason: 'MAX_TOKENS', index: 0 }],
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 268, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 12 }], thoughtsTokenCount: 256 },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'r1',
    };
    const server = await serve((_req, res) => sendJson(res, 200, answer));
    expect(await gemini({ baseURL: server.url }).complete(PING)).toEqual({
      content: '',
      toolCalls: [],
      stopReason: 'max_tokens',
      usage: { input: 12, output: 256, reasoning: 256 },
      model: 'gemini-2.5-pro',
      id: 'r1',
    });
  });

  it('stream(): a blocked prompt (no candidates, promptFeedback.blockReason) stops with content_filter, as complete() does', async () => {
    const blocked = { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 }, modelVersion: 'gemini-2.5-flash', responseId: 'r1' };
    const server = await serve((_req, res) => void writeBody(res, [sse(blocked)]));
    const { parts, error } = await drain(gemini({ baseURL: server.url }).stream!(PING));
    expect(error).toBeUndefined();
    expect(parts).toEqual([
      { type: 'usage', usage: { input: 8, output: 0 } },
      { type: 'finish', stopReason: 'content_filter', model: 'gemini-2.5-flash', id: 'r1' },
    ]);
  });
});

describe('the finish reason a refusal is exported as', () => {
  it("Anthropic's stop_reason refusal is the conventions' content_filter, model_context_window_exceeded is length", () => {
    expect([finishReason('refusal'), finishReason('model_context_window_exceeded')]).toEqual(['content_filter', 'length']);
  });
});

describe("gemini's finish reasons beyond text", () => {
  it('image safety stops are content_filter; a function call the model could not make is an error', async () => {
    const reasons = ['IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL'];
    const server = await serve((_req, res, index) => sendJson(res, 200, { candidates: [{ finishReason: reasons[index], index: 0 }], usageMetadata: { promptTokenCount: 5 } }));
    const provider = gemini({ baseURL: server.url });
    const stops: string[] = [];
    for (const _reason of reasons) stops.push((await provider.complete(PING)).stopReason);
    expect(stops).toEqual(['content_filter', 'content_filter', 'error', 'error']);
    expect(stops.map(finishReason)).toEqual(['content_filter', 'content_filter', 'error', 'error']);
  });
});

describe("gemini's 429 says how long to wait in its body", () => {
  it('a RetryInfo retryDelay is the wait before the retry (no Retry-After header)', async () => {
    const arrivals: number[] = [];
    const exhausted = {
      error: {
        code: 429,
        message: 'You exceeded your current quota.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests' }] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.15s' },
        ],
      },
    };
    const server = await serve((_req, res, index) => {
      arrivals.push(performance.now());
      if (index === 0) sendJson(res, 429, exhausted);
      else sendJson(res, 200, { candidates: [{ content: { parts: [{ text: 'pong' }], role: 'model' }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 } });
    });
    const answer = await gemini({ baseURL: server.url, retryBaseMs: 1 }).complete(PING);
    expect({ content: answer.content, requests: server.requests.length }).toEqual({ content: 'pong', requests: 2 });
    // retryBaseMs is 1 ms: only the body's 150 ms explains this gap.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(140);
  });
});

describe('a 401 to a request that carried no credentials', () => {
  it('says no apiKey was given (an unset key variable), and only then', async () => {
    const server = await serve((_req, res) => sendJson(res, 401, { error: { message: 'Missing bearer or basic authentication in header', type: 'invalid_request_error' } }));
    const makers: [string, (apiKey?: string) => LLMProvider][] = [
      ['openaiCompatible', (apiKey) => openaiCompatible({ baseURL: server.url, apiKey })],
      ['openaiResponses', (apiKey) => openaiResponses({ baseURL: server.url, apiKey })],
      ['anthropic', (apiKey) => anthropic({ baseURL: server.url, apiKey })],
      ['gemini', (apiKey) => gemini({ baseURL: server.url, apiKey })],
    ];
    const hint = '; the request carried no credentials (no apiKey was given)';
    for (const [label, make] of makers) {
      const keyless = await failureOf(make(undefined).complete(PING));
      const keyed = await failureOf(make('sk-wrong').complete(PING));
      expect({ label, keyless: keyless.message.endsWith(hint), keyed: keyed.message.includes('credentials'), status: keyless.status }).toEqual({ label, keyless: true, keyed: false, status: 401 });
    }
  });
});
