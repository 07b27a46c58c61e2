/**
 * gemini(): an LLMProvider for the Gemini API (`models/{model}:generateContent`, streamed as
 * `:streamGenerateContent?alt=sse`). It translates the port to `contents` (user and model turns of
 * parts: text, inlineData / fileData images, functionCall parts with the thoughtSignature each call
 * came with, and functionResponse parts for tool results, which Gemini matches by the function's
 * name) and the first candidate back (geminiFields.ts; its stream in geminiStream.ts). Transport,
 * deadlines, retries, the size cap and error typing live in http.ts; the model is part of the path,
 * so each request's URL is made from the connection's.
 */
import type { ProviderBoundary } from './boundary.js';
import { connectJson, type Connection } from './connection.js';
import { candidateParts, parseUsage, stopReasonOf } from './geminiFields.js';
import { geminiStreamParts } from './geminiStream.js';
import { isRecord, optional } from './guards.js';
import { postForEvents, postJson } from './http.js';
import { checkedImage, chosenTool, contentParts, textOnly } from './requestControls.js';
import type { LLMStreamPart, StreamOptions } from './stream.js';
import { TRANSPORT_OPTIONS, transportSettings, type TransportOptions } from './transport.js';
import { ConfigError, optionNames, refuseUnknownOptions } from '../run/index.js';
import type { CompleteOptions, LLMMessage, LLMProvider, LLMRequest, LLMResponse, MessagePart } from './types.js';

export interface GeminiOptions extends TransportOptions {
  /** Sent as `x-goog-api-key` when given. */
  apiKey?: string;
  /** Up to the API version's root. Default 'https://generativelanguage.googleapis.com'. A query string stays at the end of every request URL. */
  baseURL?: string;
  /** Extra request headers (proxies); they override the defaults. */
  headers?: Record<string, string>;
}

type Part = Record<string, unknown>;

interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

let replies = 0;

/** Every option gemini() takes (a name not here is a ConfigError: run/knownOptions.ts). */
const OPTIONS = optionNames<GeminiOptions>()([...TRANSPORT_OPTIONS, 'apiKey', 'baseURL', 'headers']);

export function gemini(options: GeminiOptions = {}): LLMProvider {
  refuseUnknownOptions('gemini', options, OPTIONS);
  const name = 'gemini';
  const connection = connectJson(name, options, { baseURL: 'https://generativelanguage.googleapis.com', path: '/v1beta/models', credentialHeader: 'x-goog-api-key' });
  const { boundary, server } = connection;
  const transport = transportSettings(name, options);
  return {
    name,
    server,
    async complete(request: LLMRequest, opts?: CompleteOptions): Promise<LLMResponse> {
      const body = requestBody(name, request);
      const answer = await postJson({ body, signal: opts?.signal, ...connection, ...endpoint(connection, request.model, 'generateContent') }, transport);
      return parseResponse(boundary, answer);
    },
    stream(request: LLMRequest, opts?: StreamOptions): AsyncIterable<LLMStreamPart> {
      const body = requestBody(name, request);
      const post = { body, signal: opts?.signal, ...connection, ...endpoint(connection, request.model, 'streamGenerateContent') };
      return geminiStreamParts(boundary, postForEvents(post, transport), callIds());
    },
  };
}

/** The request URL for `model` and `method` (the stream's with alt=sse), and its recorded form. */
function endpoint(connection: Connection, model: string, method: 'generateContent' | 'streamGenerateContent'): { url: string; recordedUrl: string } {
  const at = (href: string) => {
    const url = new URL(href);
    url.pathname = `${url.pathname}/${encodeURIComponent(model)}:${method}`;
    if (method === 'streamGenerateContent') url.searchParams.set('alt', 'sse');
    return url.href;
  };
  return { url: at(connection.url), recordedUrl: at(connection.recordedUrl) };
}

/** Ids for the calls of one reply that came without one: unique across replies, as tool call ids must be. */
function callIds(): (index: number) => string {
  const reply = ++replies;
  return (index) => `gemini_call_${reply}_${index}`;
}

function requestBody(provider: string, request: LLMRequest): Record<string, unknown> {
  const format = request.responseFormat;
  const generationConfig = {
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
    ...(request.reasoningEffort === undefined ? {} : { thinkingConfig: { thinkingLevel: request.reasoningEffort } }),
    // The contract's schema is JSON Schema: responseJsonSchema takes it as it is (responseSchema takes an OpenAPI subset).
    ...(format === undefined ? {} : { responseMimeType: 'application/json', responseJsonSchema: format.schema }),
  };
  const toolConfig = toolConfigOf(provider, request);
  return {
    contents: wireContents(provider, request.messages),
    ...(request.systemPrompt === undefined ? {} : { systemInstruction: { parts: [{ text: request.systemPrompt }] } }),
    // Likewise parametersJsonSchema: `parameters` is the OpenAPI subset, which refuses a JSON Schema's
    // $schema, $ref, $defs and additionalProperties (what zod and MCP servers' schemas carry) with a 400.
    ...(request.tools?.length
      ? { tools: [{ functionDeclarations: request.tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema })) }] }
      : {}),
    ...(toolConfig === undefined ? {} : { toolConfig }),
    ...(Object.keys(generationConfig).length === 0 ? {} : { generationConfig }),
  };
}

/** toolChoice as function calling modes: `ANY` is "required", one tool is ANY limited to its name. */
function toolConfigOf(provider: string, request: LLMRequest): Record<string, unknown> | undefined {
  const tool = chosenTool(provider, request);
  if (tool !== undefined) return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [tool] } };
  const modes = { auto: 'AUTO', none: 'NONE', required: 'ANY' } as const;
  const choice = request.toolChoice as keyof typeof modes | undefined;
  return choice === undefined ? undefined : { functionCallingConfig: { mode: modes[choice] } };
}

/** Tool results travel as functionResponse parts (named by the call they answer) in a user turn; consecutive results share one turn. */
function wireContents(provider: string, messages: LLMMessage[]): Content[] {
  const contents: Content[] = [];
  const callNames = new Map<string, string>();
  let results: Part[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const name = message.toolCallId === undefined ? undefined : callNames.get(message.toolCallId);
      if (name === undefined) throw new ConfigError(`${provider}: a tool result answers no tool call of an earlier assistant message`, { field: 'messages' });
      const part = { functionResponse: { name, response: { name, content: textOnly(provider, message) } } };
      if (results) {
        results.push(part);
      } else {
        results = [part];
        contents.push({ role: 'user', parts: results });
      }
      continue;
    }
    results = undefined;
    if (message.role === 'assistant') {
      const text = textOnly(provider, message);
      const parts: Part[] = text === '' ? [] : [{ text }];
      for (const call of message.toolCalls ?? []) {
        callNames.set(call.id, call.name);
        // The signature the call came with, back on its part as it came (geminiFields.ts).
        parts.push(call.signature === undefined ? { functionCall: { name: call.name, args: call.args } } : { functionCall: { name: call.name, args: call.args }, thoughtSignature: call.signature });
      }
      contents.push({ role: 'model', parts });
    } else {
      contents.push({ role: 'user', parts: contentParts(message.content).map((part) => wirePart(provider, part)) });
    }
  }
  return contents;
}

/** A user message's part: text, or an image as inline bytes or a file URI. */
function wirePart(provider: string, part: MessagePart): Part {
  if (part.type === 'text') return { text: part.text };
  const image = checkedImage(provider, part);
  return 'url' in image ? { fileData: { mimeType: image.mediaType, fileUri: image.url } } : { inlineData: { mimeType: image.mediaType, data: image.data } };
}

function parseResponse(boundary: ProviderBoundary, body: unknown): LLMResponse {
  if (!isRecord(body)) throw boundary.malformed('the answer is not an object', body);
  const candidate = Array.isArray(body.candidates) ? body.candidates[0] : undefined;
  const usage = parseUsage(boundary, body.usageMetadata, body);
  const identity = {
    ...optional('usage', usage),
    ...(typeof body.modelVersion === 'string' ? { model: body.modelVersion } : {}),
    ...(typeof body.responseId === 'string' ? { id: body.responseId } : {}),
  };
  if (candidate === undefined) {
    // A prompt the API blocked is answered with no candidates and the reason in promptFeedback.
    const blocked = isRecord(body.promptFeedback) && typeof body.promptFeedback.blockReason === 'string';
    if (!blocked) throw boundary.malformed('no candidates[0]', body);
    return { content: '', toolCalls: [], stopReason: 'content_filter', ...identity };
  }
  if (!isRecord(candidate)) throw boundary.malformed('candidates[0] is not an object', body);
  const { text, calls } = candidateParts(boundary, candidate, body, callIds());
  return { content: text, toolCalls: calls, stopReason: stopReasonOf(candidate.finishReason, calls.length > 0), ...identity };
}
