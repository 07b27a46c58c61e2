/**
 * The HTTP providers as the shared provider suite sees them: for each wire format, how to make the
 * provider, where it posts, a whole answer and an event stream written as that API writes them
 * (recorded shapes from each API's public reference), its error bodies, and what the port makes of
 * them. Every file of the shared suite (failures, replyCap, streamFailures, usage, telemetry) runs
 * each of its cases over every target here, each against its own 127.0.0.1 server.
 */
import type { TokenUsage } from '../../../src/events/index.js';
import { anthropic, gemini, openaiCompatible, openaiResponses, type LLMProvider, type LLMStreamPart, type TransportOptions } from '../../../src/runtime/index.js';
import { sse } from './streaming.js';

export interface Target {
  label: string;
  /** The API key `make` gives the provider. */
  apiKey: string;
  make(baseURL: string, transport: TransportOptions): LLMProvider;
  /** gen_ai.provider.name of its chat spans. */
  providerName: string;
  /** The path (and query) a request for model 'test-model' goes to: whole answer, and stream. */
  path: string;
  streamPath: string;
  /** A whole answer whose text is 'pong', with `usage` (9 in, 1 out) as this API reports it. */
  ok: unknown;
  /** What the port reads from `ok` besides its text. */
  okReads: { usage: TokenUsage; stopReason: string; model: string; id: string };
  /** An error body as this API writes it for an HTTP `status`, and the labels the error message gets from it. */
  errorBody(type: string, message: string, status?: number): unknown;
  errorLabel(type: string, status?: number): string;
  /** Events before the first text. */
  start: string[];
  /** An event carrying one text delta. */
  text(delta: string): string;
  /** The events that finish the reply (with usage 9 in, 2 out), and the finish part they give. */
  end: string[];
  finish: LLMStreamPart;
  /** The usage the port reads from the stream `start` + `end` (9 in, 2 out). */
  endUsage: TokenUsage;
  /** The message of a stream whose body ends before its finish. */
  endedEarly: string;
  /** The error the server reports mid-stream, as this API writes it, and its labels in the message. */
  errorEvent(type: string, message: string): string;
  errorEventLabel(type: string): string;
}

const openaiError = (type: string, message: string) => ({ error: { message, type, param: null, code: null } });

const chatChunk = (delta: Record<string, unknown>, finish: string | null) =>
  sse({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1741569952, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] });

const claudeMessage = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-3-5-haiku-20241022' };

/** The Responses API's response object, as `POST /responses` answers and `response.completed` carries it. */
export function responsesObject(status: string, output: unknown[], usage: unknown): Record<string, unknown> {
  return {
    id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
    object: 'response',
    created_at: 1741476542,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: 'gpt-4.1-2025-04-14',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1.0,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1.0,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  };
}

export function responsesUsage(tokens: { input: number; output: number; cached?: number; reasoning?: number }): Record<string, unknown> {
  return {
    input_tokens: tokens.input,
    input_tokens_details: { cached_tokens: tokens.cached ?? 0 },
    output_tokens: tokens.output,
    output_tokens_details: { reasoning_tokens: tokens.reasoning ?? 0 },
    total_tokens: tokens.input + tokens.output,
  };
}

const RESPONSE_ID = 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b';
export const MESSAGE_ITEM = 'msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b';
let sequence = 0;

/** One Responses stream event: `event:` names its type, its data carries the type and the next sequence_number. */
export function responsesEvent(type: string, fields: Record<string, unknown>): string {
  return sse({ type, sequence_number: sequence++, ...fields }, type);
}

/** A Responses `message` output item holding `text` (an in-progress one, before any text, has no content yet). */
export const responsesMessage = (text: string, status: string) => ({
  type: 'message',
  id: MESSAGE_ITEM,
  status,
  role: 'assistant',
  content: text === '' && status === 'in_progress' ? [] : [{ type: 'output_text', text, annotations: [] }],
});

/** One Gemini GenerateContentResponse (a whole answer, or one chunk of its stream). */
export function geminiChunk(parts: unknown[], finishReason: string | undefined, usage: Record<string, unknown>): Record<string, unknown> {
  return {
    candidates: [{ content: { parts, role: 'model' }, ...(finishReason === undefined ? {} : { finishReason }), index: 0 }],
    usageMetadata: usage,
    modelVersion: 'gemini-2.5-flash',
    responseId: 'mBwjaPmNMeWAz7IPqPXa0Qc',
  };
}

export function geminiUsage(tokens: { prompt: number; candidates?: number; thoughts?: number; cached?: number }): Record<string, unknown> {
  return {
    promptTokenCount: tokens.prompt,
    ...(tokens.candidates === undefined ? {} : { candidatesTokenCount: tokens.candidates }),
    totalTokenCount: tokens.prompt + (tokens.candidates ?? 0) + (tokens.thoughts ?? 0),
    ...(tokens.cached === undefined ? {} : { cachedContentTokenCount: tokens.cached }),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens.prompt }],
    ...(tokens.thoughts === undefined ? {} : { thoughtsTokenCount: tokens.thoughts }),
  };
}

/** Google's error statuses by HTTP status (google.rpc.Code), as the Gemini API writes them. */
const GOOGLE_STATUS: Record<number, string> = { 400: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

export const targets: Target[] = [
  {
    label: 'openaiCompatible',
    apiKey: 'sk-test',
    make: (baseURL, transport) => openaiCompatible({ baseURL, apiKey: 'sk-test', ...transport }),
    providerName: 'openai',
    path: '/chat/completions',
    streamPath: '/chat/completions',
    ok: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1741569952,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message: { role: 'assistant', content: 'pong', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10, prompt_tokens_details: { cached_tokens: 0 } },
    },
    okReads: { usage: { input: 9, output: 1, cacheRead: 0 }, stopReason: 'end_turn', model: 'gpt-4o-mini-2024-07-18', id: 'chatcmpl-1' },
    errorBody: openaiError,
    errorLabel: (type) => ` (type ${type})`,
    start: [],
    text: (delta) => chatChunk({ content: delta }, null),
    end: [
      chatChunk({}, 'stop'),
      sse({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1741569952, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }),
      'data: [DONE]\n\n',
    ],
    finish: { type: 'finish', stopReason: 'end_turn', model: 'gpt-4o-mini', id: 'chatcmpl-1' },
    endUsage: { input: 9, output: 2 },
    endedEarly: 'openai: malformed response: the stream ended before the reply finished (no finish_reason, no [DONE])',
    errorEvent: (type, message) => sse(openaiError(type, message)),
    errorEventLabel: (type) => ` (type ${type})`,
  },
  {
    label: 'openaiResponses',
    apiKey: 'sk-test',
    make: (baseURL, transport) => openaiResponses({ baseURL, apiKey: 'sk-test', ...transport }),
    providerName: 'openai',
    path: '/responses',
    streamPath: '/responses',
    ok: responsesObject('completed', [responsesMessage('pong', 'completed')], responsesUsage({ input: 9, output: 1 })),
    okReads: { usage: { input: 9, output: 1, cacheRead: 0, reasoning: 0 }, stopReason: 'end_turn', model: 'gpt-4.1-2025-04-14', id: RESPONSE_ID },
    errorBody: openaiError,
    errorLabel: (type) => ` (type ${type})`,
    get start() {
      return [
        responsesEvent('response.created', { response: responsesObject('in_progress', [], null) }),
        responsesEvent('response.in_progress', { response: responsesObject('in_progress', [], null) }),
        responsesEvent('response.output_item.added', { output_index: 0, item: responsesMessage('', 'in_progress') }),
        responsesEvent('response.content_part.added', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
      ];
    },
    text: (delta) => responsesEvent('response.output_text.delta', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, delta }),
    get end() {
      return [
        responsesEvent('response.output_text.done', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, text: 'one two ' }),
        responsesEvent('response.content_part.done', { item_id: MESSAGE_ITEM, output_index: 0, content_index: 0, part: { type: 'output_text', text: 'one two ', annotations: [] } }),
        responsesEvent('response.output_item.done', { output_index: 0, item: responsesMessage('one two ', 'completed') }),
        responsesEvent('response.completed', { response: responsesObject('completed', [responsesMessage('one two ', 'completed')], responsesUsage({ input: 9, output: 2 })) }),
      ];
    },
    finish: { type: 'finish', stopReason: 'end_turn', model: 'gpt-4.1-2025-04-14', id: RESPONSE_ID },
    endUsage: { input: 9, output: 2, cacheRead: 0, reasoning: 0 },
    endedEarly: 'openai: malformed response: the stream ended before response.completed',
    errorEvent: (type, message) => responsesEvent('error', { code: type, message, param: null }),
    errorEventLabel: (type) => ` (code ${type})`,
  },
  {
    label: 'anthropic',
    apiKey: 'sk-ant-test',
    make: (baseURL, transport) => anthropic({ baseURL, apiKey: 'sk-ant-test', ...transport }),
    providerName: 'anthropic',
    path: '/v1/messages',
    streamPath: '/v1/messages',
    ok: { ...claudeMessage, content: [{ type: 'text', text: 'pong' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } },
    okReads: { usage: { input: 9, output: 1 }, stopReason: 'end_turn', model: 'claude-3-5-haiku-20241022', id: 'msg_1' },
    errorBody: (type, message) => ({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' }),
    errorLabel: (type) => ` (type ${type})`,
    start: [
      sse({ type: 'message_start', message: { ...claudeMessage, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    ],
    text: (delta) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: delta } }, 'content_block_delta'),
    end: [
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
    finish: { type: 'finish', stopReason: 'end_turn', model: 'claude-3-5-haiku-20241022', id: 'msg_1' },
    endUsage: { input: 9, output: 2 },
    endedEarly: 'anthropic: malformed response: the stream ended before message_stop',
    errorEvent: (type, message) => sse({ type: 'error', error: { type, message } }, 'error'),
    errorEventLabel: (type) => ` (type ${type})`,
  },
  {
    label: 'gemini',
    apiKey: 'AIza-test-key',
    make: (baseURL, transport) => gemini({ baseURL, apiKey: 'AIza-test-key', ...transport }),
    providerName: 'gcp.gemini',
    path: '/v1beta/models/test-model:generateContent',
    streamPath: '/v1beta/models/test-model:streamGenerateContent?alt=sse',
    ok: geminiChunk([{ text: 'pong' }], 'STOP', geminiUsage({ prompt: 9, candidates: 1 })),
    okReads: { usage: { input: 9, output: 1 }, stopReason: 'end_turn', model: 'gemini-2.5-flash', id: 'mBwjaPmNMeWAz7IPqPXa0Qc' },
    errorBody: (type, message, status = 400) => ({ error: { code: status, message, status: GOOGLE_STATUS[status] ?? type } }),
    errorLabel: (type, status = 400) => ` (type ${GOOGLE_STATUS[status] ?? type}, code ${status})`,
    start: [],
    text: (delta) => sse(geminiChunk([{ text: delta }], undefined, geminiUsage({ prompt: 9 }))),
    end: [sse(geminiChunk([{ text: '' }], 'STOP', geminiUsage({ prompt: 9, candidates: 2 })))],
    finish: { type: 'finish', stopReason: 'end_turn', model: 'gemini-2.5-flash', id: 'mBwjaPmNMeWAz7IPqPXa0Qc' },
    endUsage: { input: 9, output: 2 },
    endedEarly: 'gemini: malformed response: the stream ended before the reply finished (no finishReason)',
    errorEvent: (type, message) => sse({ error: { code: 500, message, status: type } }),
    errorEventLabel: (type) => ` (type ${type}, code 500)`,
  },
];
