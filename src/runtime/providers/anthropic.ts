/**
 * anthropic(): an LLMProvider for Anthropic's Messages API wire format. It translates the
 * LLMProvider port to content blocks (tool_use / tool_result) and back (its stream in
 * anthropicStream.ts); the usage block in anthropicUsage.ts; transport, deadlines, retries, the size
 * cap and error typing live in http.ts.
 */
import { parseUsage } from './anthropicUsage.js';
import { messagesStreamParts } from './anthropicStream.js';
import type { ProviderBoundary } from './boundary.js';
import { connect } from './connection.js';
import { isRecord, optional } from './guards.js';
import { postForEvents, postJson } from './http.js';
import type { LLMStreamPart, StreamOptions } from './stream.js';
import { TRANSPORT_OPTIONS, transportSettings, type TransportOptions } from './transport.js';
import { ConfigError, numberSetting, optionNames, refuseUnknownOptions, RULES } from '../run/index.js';
import { checkedImage, chosenTool, refuseControl, textOnly } from './requestControls.js';
import type { CompleteOptions, LLMMessage, LLMProvider, LLMRequest, LLMResponse, MessagePart, ToolCall } from './types.js';

export interface AnthropicOptions extends TransportOptions {
  /** Sent as `x-api-key` when given. */
  apiKey?: string;
  /** Default 'https://api.anthropic.com'. A query string stays at the end of every request URL. */
  baseURL?: string;
  /** max_tokens when the request sets none (the API requires one). Default 1024. */
  maxTokens?: number;
  /**
   * Anthropic's automatic prompt caching, sent as the request's top-level `cache_control`
   * (`{ type: 'ephemeral' }`, kept five minutes): the API caches the prompt (tools, system, messages)
   * up to its last cacheable block and moves that point forward as the conversation grows, so each
   * model call of a tool loop or a conversation reads the calls before it back at a tenth of the
   * input price. Off by default: writing the cache costs 1.25x the input price, which pays only when
   * the next call with the same start comes within five minutes. A prompt shorter than the model's
   * minimum is not cached. The reply's usage says what was read and written (`cacheRead`,
   * `cacheWrite`), and the cost, the chat spans and the token metrics count them.
   */
  promptCache?: boolean;
}

const API_VERSION = '2023-06-01';

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string | undefined; content: string };

interface WireMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** Every option anthropic() takes (a name not here is a ConfigError: run/knownOptions.ts). */
const OPTIONS = optionNames<AnthropicOptions>()([...TRANSPORT_OPTIONS, 'apiKey', 'baseURL', 'maxTokens', 'promptCache']);

export function anthropic(options: AnthropicOptions = {}): LLMProvider {
  refuseUnknownOptions('anthropic', options, OPTIONS);
  const name = 'anthropic';
  const connection = connect({
    provider: name,
    baseURL: options.baseURL ?? 'https://api.anthropic.com',
    path: '/v1/messages',
    protocolHeaders: { 'content-type': 'application/json', 'anthropic-version': API_VERSION },
    headers: options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey },
    apiKey: options.apiKey,
    captureContent: options.captureContent,
  });
  const { boundary, server } = connection;
  const settings: BodySettings = {
    defaultMaxTokens: numberSetting(name, 'maxTokens', options.maxTokens, RULES.maxTokens, 1024),
    promptCache: promptCacheSetting(name, options.promptCache),
  };
  const transport = transportSettings(name, options);
  return {
    name,
    server,
    async complete(request: LLMRequest, opts?: CompleteOptions): Promise<LLMResponse> {
      const body = await postJson({ body: requestBody(name, request, settings), signal: opts?.signal, ...connection }, transport);
      return parseResponse(boundary, body);
    },
    stream(request: LLMRequest, opts?: StreamOptions): AsyncIterable<LLMStreamPart> {
      const body = { stream: true, ...requestBody(name, request, settings) };
      return messagesStreamParts(boundary, postForEvents({ body, signal: opts?.signal, ...connection }, transport));
    },
  };
}

/** What every request body of one anthropic() provider takes from its options. */
interface BodySettings {
  defaultMaxTokens: number;
  promptCache: boolean;
}

function promptCacheSetting(provider: string, value: unknown): boolean {
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  throw new ConfigError(`${provider}: promptCache must be true or false (got ${typeof value})`, { field: 'promptCache' });
}

function requestBody(provider: string, request: LLMRequest, settings: BodySettings): Record<string, unknown> {
  refuseControl(provider, request, 'reasoningEffort', 'the Messages API has a thinking token budget, not an effort level');
  const format = request.responseFormat;
  if (format !== undefined && request.toolChoice !== undefined) {
    throw new ConfigError(`${provider}: responseFormat is sent as a forced tool, so it cannot be combined with toolChoice`, { field: 'toolChoice' });
  }
  const tools: Record<string, unknown>[] = (request.tools ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
  // Structured output on the Messages API: one more tool whose input is the answer, and the model forced to call it.
  if (format !== undefined) tools.push({ name: format.name, description: `Answer with the ${format.name} object.`, input_schema: format.schema });
  const choice = format === undefined ? toolChoiceOf(provider, request) : { type: 'tool', name: format.name };
  return {
    model: request.model,
    max_tokens: request.maxTokens ?? settings.defaultMaxTokens,
    messages: wireMessages(provider, request.messages),
    ...(request.systemPrompt === undefined ? {} : { system: request.systemPrompt }),
    ...(tools.length > 0 ? { tools } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(choice === undefined ? {} : { tool_choice: choice }),
    ...(settings.promptCache ? { cache_control: { type: 'ephemeral' } } : {}),
  };
}

/** toolChoice in the Messages API's words: `any` is its "required". */
function toolChoiceOf(provider: string, request: LLMRequest): Record<string, unknown> | undefined {
  const tool = chosenTool(provider, request);
  if (tool !== undefined) return { type: 'tool', name: tool };
  switch (request.toolChoice) {
    case undefined:
      return undefined;
    case 'required':
      return { type: 'any' };
    default:
      return { type: request.toolChoice as 'auto' | 'none' };
  }
}

/** A user message's part as a content block: text, or an image from its bytes or its URL. */
function wireBlock(provider: string, part: MessagePart): ContentBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const image = checkedImage(provider, part);
  return { type: 'image', source: 'url' in image ? { type: 'url', url: image.url } : { type: 'base64', media_type: image.mediaType, data: image.data } };
}

/** Tool results travel as tool_result blocks in a user turn; consecutive results share one turn. */
function wireMessages(provider: string, messages: LLMMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  let results: ContentBlock[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const block: ContentBlock = { type: 'tool_result', tool_use_id: message.toolCallId, content: textOnly(provider, message) };
      if (results) {
        results.push(block);
      } else {
        results = [block];
        wire.push({ role: 'user', content: results });
      }
      continue;
    }
    results = undefined;
    if (message.role === 'assistant' && message.toolCalls?.length) {
      // The API rejects empty text blocks, so a pure tool call carries only tool_use blocks.
      const text = textOnly(provider, message);
      const blocks: ContentBlock[] = text === '' ? [] : [{ type: 'text', text }];
      for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
      wire.push({ role: 'assistant', content: blocks });
    } else if (message.role === 'assistant' || typeof message.content === 'string') {
      wire.push({ role: message.role, content: textOnly(provider, message) });
    } else {
      wire.push({ role: 'user', content: message.content.map((part) => wireBlock(provider, part)) });
    }
  }
  return wire;
}

function parseResponse(boundary: ProviderBoundary, body: unknown): LLMResponse {
  if (!isRecord(body) || !Array.isArray(body.content)) throw boundary.malformed('no content array', body);
  let content = '';
  const toolCalls: ToolCall[] = [];
  body.content.forEach((block: unknown, index) => {
    if (!isRecord(block)) throw boundary.malformed(`content[${index}] is not a block`, body);
    if (block.type === 'text') {
      if (typeof block.text !== 'string') throw boundary.malformed(`content[${index}].text is not a string`, body);
      content += block.text;
    } else if (block.type === 'tool_use') {
      if (typeof block.id !== 'string' || typeof block.name !== 'string' || !isRecord(block.input)) {
        throw boundary.malformed(`content[${index}] is not a tool_use with id, name and object input`, body);
      }
      toolCalls.push({ id: block.id, name: block.name, args: block.input });
    }
    // Other block types (thinking, server tool results, ...) carry nothing the port models.
  });
  return {
    content,
    toolCalls,
    stopReason: typeof body.stop_reason === 'string' ? body.stop_reason : 'unknown',
    ...optional('usage', parseUsage(boundary, body.usage, body)),
    ...(typeof body.model === 'string' ? { model: body.model } : {}),
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
  };
}
