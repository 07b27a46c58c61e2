/**
 * openaiCompatible(): an LLMProvider for the OpenAI Chat Completions wire format, which OpenAI itself,
 * Ollama (/v1), vLLM and the llama.cpp server all speak. This module only translates between the
 * LLMProvider port and that format (its stream in openaiStream.ts); transport, deadlines, retries,
 * the size cap and error typing live in http.ts.
 */
import type { ProviderBoundary } from './boundary.js';
import { connectJson } from './connection.js';
import { isRecord, optional } from './guards.js';
import { argumentsText, callArguments } from './toolArguments.js';
import { postForEvents, postJson } from './http.js';
import { parseUsage, sendsSignatures, signatureField, signatureOf, stopReasonOf } from './openaiFields.js';
import { chatCompletionParts } from './openaiStream.js';
import type { LLMStreamPart, StreamOptions } from './stream.js';
import { TRANSPORT_OPTIONS, transportSettings, type TransportOptions } from './transport.js';
import { ConfigError, optionNames, refuseUnknownOptions, toolCallOf } from '../run/index.js';
import { chosenTool, imageUrl, textOnly } from './requestControls.js';
import type { CompleteOptions, LLMMessage, LLMProvider, LLMRequest, LLMResponse, MessagePart, ToolCall } from './types.js';

export interface OpenAICompatibleOptions extends TransportOptions {
  /**
   * Up to and including the version segment, e.g. 'https://api.openai.com/v1', 'http://localhost:11434/v1'.
   * A query string stays at the end of every request URL; userinfo is sent as Basic authorization.
   */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given (local servers usually need none). */
  apiKey?: string;
  /** Provider name for telemetry. Default 'openai'. */
  name?: string;
  /** Extra request headers (organisation, project, proxies); they override the defaults. */
  headers?: Record<string, string>;
}

/** Every option openaiCompatible() takes (a name not here is a ConfigError: run/knownOptions.ts). */
const OPTIONS = optionNames<OpenAICompatibleOptions>()([...TRANSPORT_OPTIONS, 'baseURL', 'apiKey', 'name', 'headers']);

export function openaiCompatible(options: OpenAICompatibleOptions): LLMProvider {
  if (typeof options !== 'object' || options === null) throw new ConfigError('openaiCompatible needs options: { baseURL }', { field: 'options' });
  refuseUnknownOptions('openaiCompatible', options, OPTIONS);
  const name = options.name ?? 'openai';
  const connection = connectJson(name, options, { baseURL: options.baseURL, path: '/chat/completions', credentialHeader: 'authorization', bearer: true });
  const { boundary, server } = connection;
  const transport = transportSettings(name, options);
  return {
    name,
    server,
    systemPromptInHistory: true,
    async complete(request: LLMRequest, opts?: CompleteOptions): Promise<LLMResponse> {
      const body = await postJson({ body: requestBody(name, request), signal: opts?.signal, ...connection }, transport);
      return parseResponse(boundary, body);
    },
    stream(request: LLMRequest, opts?: StreamOptions): AsyncIterable<LLMStreamPart> {
      const body = { stream: true, stream_options: { include_usage: true }, ...requestBody(name, request) };
      return chatCompletionParts(boundary, postForEvents({ body, signal: opts?.signal, ...connection }, transport));
    },
  };
}

function requestBody(provider: string, request: LLMRequest): Record<string, unknown> {
  const messages: unknown[] = [];
  if (request.systemPrompt !== undefined) messages.push({ role: 'system', content: request.systemPrompt });
  const signatures = sendsSignatures(request.model);
  for (const message of request.messages) messages.push(wireMessage(provider, message, signatures));
  const tool = chosenTool(provider, request);
  const format = request.responseFormat;
  return {
    model: request.model,
    messages,
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
          })),
        }
      : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
    ...(request.toolChoice === undefined
      ? {}
      : { tool_choice: tool === undefined ? request.toolChoice : { type: 'function', function: { name: tool } } }),
    ...(request.reasoningEffort === undefined ? {} : { reasoning_effort: request.reasoningEffort }),
    ...(format === undefined
      ? {}
      : { response_format: { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, ...(format.strict === undefined ? {} : { strict: format.strict }) } } }),
  };
}

function wireMessage(provider: string, message: LLMMessage, signatures: boolean): Record<string, unknown> {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: textOnly(provider, message) };
  if (message.role === 'assistant' && message.toolCalls?.length) {
    const text = textOnly(provider, message);
    return {
      role: 'assistant',
      // The API itself answers a pure tool call with content null; echo it back the same way.
      content: text === '' ? null : text,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: argumentsText(call) },
        ...(signatures ? signatureField(call.signature) : {}),
      })),
    };
  }
  if (message.role === 'assistant' || typeof message.content === 'string') return { role: message.role, content: textOnly(provider, message) };
  return { role: message.role, content: message.content.map((part) => wirePart(provider, part)) };
}

/** A user message's part: text, or an image by URL (its bytes as a data: URL). */
function wirePart(provider: string, part: MessagePart): Record<string, unknown> {
  if (part.type === 'text') return { type: 'text', text: part.text };
  return { type: 'image_url', image_url: { url: imageUrl(provider, part) } };
}

function parseResponse(boundary: ProviderBoundary, body: unknown): LLMResponse {
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  if (!isRecord(body) || !isRecord(choice) || !isRecord(message)) {
    throw boundary.malformed('no choices[0].message', body);
  }
  const content = message.content ?? '';
  if (typeof content !== 'string') throw boundary.malformed('choices[0].message.content is not a string', body);
  // A refusal (structured outputs, safety) comes as `refusal` text with content null: it is the answer.
  const refusal = typeof message.refusal === 'string' ? message.refusal : '';
  const finish = choice.finish_reason;
  return {
    content: content + refusal,
    toolCalls: parseToolCalls(boundary, message.tool_calls, body),
    stopReason: stopReasonOf(finish, refusal !== ''),
    ...optional('usage', parseUsage(boundary, body.usage, body)),
    ...(typeof body.model === 'string' ? { model: body.model } : {}),
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
  };
}

function parseToolCalls(boundary: ProviderBoundary, calls: unknown, body: unknown): ToolCall[] {
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls)) throw boundary.malformed('tool_calls is not an array', body);
  return calls.map((call: unknown, index) => {
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(call) || !isRecord(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
      throw boundary.malformed(`tool_calls[${index}] has no function name and arguments`, body);
    }
    const parsed = callArguments(fn.arguments);
    return toolCallOf(typeof call.id === 'string' ? call.id : `call_${index}`, fn.name, parsed.args, { argsText: parsed.argsText, signature: signatureOf(call) });
  });
}
