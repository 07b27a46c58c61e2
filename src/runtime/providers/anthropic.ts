/**
 * anthropic(): an LLMProvider for Anthropic's Messages API wire format. It translates the
 * LLMProvider port to content blocks (tool_use / tool_result) and back (its stream in
 * anthropicStream.ts); the usage block in anthropicUsage.ts; transport, deadlines, retries, the size
 * cap and error typing live in http.ts.
 */
import { textContent } from './textContent.js';
import { parseUsage } from './anthropicUsage.js';
import { messagesStreamParts } from './anthropicStream.js';
import type { ProviderBoundary } from './boundary.js';
import { connect } from './connection.js';
import { isRecord, optional } from './guards.js';
import { postForEvents, postJson } from './http.js';
import type { LLMStreamPart, StreamOptions } from './stream.js';
import { transportSettings, type TransportOptions } from './transport.js';
import { numberSetting, RULES } from '../run/index.js';
import type { CompleteOptions, LLMMessage, LLMProvider, LLMRequest, LLMResponse, ToolCall } from './types.js';

export interface AnthropicOptions extends TransportOptions {
  /** Sent as `x-api-key` when given. */
  apiKey?: string;
  /** Default 'https://api.anthropic.com'. A query string stays at the end of every request URL. */
  baseURL?: string;
  /** max_tokens when the request sets none (the API requires one). Default 1024. */
  maxTokens?: number;
}

const API_VERSION = '2023-06-01';

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string | undefined; content: string };

interface WireMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export function anthropic(options: AnthropicOptions = {}): LLMProvider {
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
  const defaultMaxTokens = numberSetting(name, 'maxTokens', options.maxTokens, RULES.maxTokens, 1024);
  const transport = transportSettings(name, options);
  return {
    name,
    server,
    async complete(request: LLMRequest, opts?: CompleteOptions): Promise<LLMResponse> {
      const body = await postJson({ body: requestBody(name, request, defaultMaxTokens), signal: opts?.signal, ...connection }, transport);
      return parseResponse(boundary, body);
    },
    stream(request: LLMRequest, opts?: StreamOptions): AsyncIterable<LLMStreamPart> {
      const body = { stream: true, ...requestBody(name, request, defaultMaxTokens) };
      return messagesStreamParts(boundary, postForEvents({ body, signal: opts?.signal, ...connection }, transport));
    },
  };
}

function requestBody(provider: string, request: LLMRequest, defaultMaxTokens: number): Record<string, unknown> {
  return {
    model: request.model,
    max_tokens: request.maxTokens ?? defaultMaxTokens,
    messages: wireMessages(provider, request.messages),
    ...(request.systemPrompt === undefined ? {} : { system: request.systemPrompt }),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: tool.inputSchema,
          })),
        }
      : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
}

/** Tool results travel as tool_result blocks in a user turn; consecutive results share one turn. */
function wireMessages(provider: string, messages: LLMMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  let results: ContentBlock[] | undefined;
  for (const message of messages) {
    const text = textContent(provider, message.content);
    if (message.role === 'tool') {
      const block: ContentBlock = { type: 'tool_result', tool_use_id: message.toolCallId, content: text };
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
      const blocks: ContentBlock[] = text === '' ? [] : [{ type: 'text', text }];
      for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
      wire.push({ role: 'assistant', content: blocks });
    } else {
      wire.push({ role: message.role, content: text });
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
