/**
 * openaiResponses(): an LLMProvider for OpenAI's Responses API (`POST /responses`), the wire format
 * OpenAI's own agent stack uses. It translates the port to `input` items (messages with input_text
 * and input_image parts, `function_call` and `function_call_output` items) and the `output` items
 * back (responsesFields.ts; its stream in responsesStream.ts). By default every request is sent with
 * `store: false` and the whole conversation; with `storeResponses` answers are stored and a request
 * that continues one is sent as its `previous_response_id` and only what is new (responsesChain.ts).
 * Transport, deadlines, retries, the size cap and error typing live in http.ts.
 */
import type { ProviderBoundary } from './boundary.js';
import { connectJson } from './connection.js';
import { isRecord, optional } from './guards.js';
import { argumentsText, callArguments } from './toolArguments.js';
import { postForEvents, postJson } from './http.js';
import { chosenTool, contentParts, imageUrl, textOnly } from './requestControls.js';
import { parseUsage, stopReasonOf } from './responsesFields.js';
import { responsesStreamParts } from './responsesStream.js';
import { ResponseChains } from './responsesChain.js';
import { StreamAssembler, type LLMStreamPart, type StreamOptions } from './stream.js';
import { TRANSPORT_OPTIONS, transportSettings, type TransportOptions } from './transport.js';
import { optionNames, refuseUnknownOptions, toolCallOf } from '../run/index.js';
import type { CompleteOptions, LLMMessage, LLMProvider, LLMRequest, LLMResponse, ToolCall } from './types.js';

export interface OpenAIResponsesOptions extends TransportOptions {
  /** Up to and including the version segment. Default 'https://api.openai.com/v1'. A query string stays at the end of every request URL. */
  baseURL?: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given. */
  apiKey?: string;
  /** Provider name for telemetry. Default 'openai'. */
  name?: string;
  /** Extra request headers (organisation, project, proxies); they override the defaults. */
  headers?: Record<string, string>;
  /**
   * Store each response on OpenAI's side (`store: true`) and send a request that continues an answer
   * this provider got as that response's `previous_response_id` with only the items after it
   * (gen_ai.request.previous_response.id on its chat span). Default false: nothing stored, the
   * whole conversation every time.
   */
  storeResponses?: boolean;
}

/** Every option openaiResponses() takes (a name not here is a ConfigError: run/knownOptions.ts). */
const OPTIONS = optionNames<OpenAIResponsesOptions>()([...TRANSPORT_OPTIONS, 'baseURL', 'apiKey', 'name', 'headers', 'storeResponses']);

export function openaiResponses(options: OpenAIResponsesOptions = {}): LLMProvider {
  refuseUnknownOptions('openaiResponses', options, OPTIONS);
  const name = options.name ?? 'openai';
  const connection = connectJson(name, options, { baseURL: 'https://api.openai.com/v1', path: '/responses', credentialHeader: 'authorization', bearer: true });
  const { boundary, server } = connection;
  const transport = transportSettings(name, options);
  const chains = options.storeResponses === true ? new ResponseChains() : undefined;
  return {
    name,
    server,
    async complete(request: LLMRequest, opts?: CompleteOptions): Promise<LLMResponse> {
      const sending = outgoing(name, request, chains);
      const body = await postJson({ body: sending.body, signal: opts?.signal, ...connection }, transport);
      const response = parseResponse(boundary, body);
      return sending.answered(response);
    },
    async *stream(request: LLMRequest, opts?: StreamOptions): AsyncGenerator<LLMStreamPart> {
      const sending = outgoing(name, request, chains);
      const body = { stream: true, ...sending.body };
      const assembler = chains && new StreamAssembler(name);
      for await (const part of responsesStreamParts(boundary, postForEvents({ body, signal: opts?.signal, ...connection }, transport))) {
        assembler?.add(part);
        if (part.type !== 'finish') {
          yield part;
          continue;
        }
        if (assembler) sending.answered(assembler.response());
        yield sending.previousResponseId === undefined ? part : { previousResponseId: sending.previousResponseId, ...part };
      }
    },
  };
}

/** One request's body, the stored response it continues (if any), and what to remember of its answer. */
interface Outgoing {
  body: Record<string, unknown>;
  previousResponseId?: string;
  /** The response, marked with the response it continued; remembered as the end of its conversation. */
  answered(response: LLMResponse): LLMResponse;
}

function outgoing(provider: string, request: LLMRequest, chains: ResponseChains | undefined): Outgoing {
  const items = request.messages.flatMap((message) => inputItems(provider, message));
  const continued = chains?.continuation(items);
  const body = requestBody(provider, request, continued?.rest ?? items, chains !== undefined, continued?.previousResponseId);
  return {
    body,
    ...(continued === undefined ? {} : { previousResponseId: continued.previousResponseId }),
    answered(response) {
      if (chains === undefined) return response;
      if (response.id !== undefined) {
        const reply: LLMMessage = { role: 'assistant', content: response.content, ...(response.toolCalls.length > 0 ? { toolCalls: response.toolCalls } : {}) };
        chains.remember([...items, ...inputItems(provider, reply)], response.id);
      }
      return continued === undefined ? response : { previousResponseId: continued.previousResponseId, ...response };
    },
  };
}

function requestBody(provider: string, request: LLMRequest, input: unknown[], store: boolean, previousResponseId: string | undefined): Record<string, unknown> {
  const tool = chosenTool(provider, request);
  const format = request.responseFormat;
  return {
    model: request.model,
    input,
    store,
    ...(previousResponseId === undefined ? {} : { previous_response_id: previousResponseId }),
    ...(request.systemPrompt === undefined ? {} : { instructions: request.systemPrompt }),
    // strict: false, said: the Responses API makes a function tool without it strict when it can (every
    // property required, so the model fills each optional argument), where Chat Completions does not.
    ...(request.tools?.length
      ? { tools: request.tools.map((spec) => ({ type: 'function', name: spec.name, description: spec.description, parameters: spec.inputSchema, strict: false })) }
      : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_output_tokens: request.maxTokens }),
    ...(request.toolChoice === undefined ? {} : { tool_choice: tool === undefined ? request.toolChoice : { type: 'function', name: tool } }),
    ...(request.reasoningEffort === undefined ? {} : { reasoning: { effort: request.reasoningEffort } }),
    ...(format === undefined
      ? {}
      : { text: { format: { type: 'json_schema', name: format.name, schema: format.schema, ...(format.strict === undefined ? {} : { strict: format.strict }) } } }),
  };
}

/** One message as input items: a tool result is a function_call_output; an assistant's calls follow its text as function_call items. */
function inputItems(provider: string, message: LLMMessage): Record<string, unknown>[] {
  if (message.role === 'tool') return [{ type: 'function_call_output', call_id: message.toolCallId, output: textOnly(provider, message) }];
  if (message.role === 'assistant') {
    const text = textOnly(provider, message);
    const items: Record<string, unknown>[] = text === '' ? [] : [{ role: 'assistant', content: text }];
    for (const call of message.toolCalls ?? []) items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: argumentsText(call) });
    return items;
  }
  const content = contentParts(message.content).map((part) =>
    part.type === 'text' ? { type: 'input_text', text: part.text } : { type: 'input_image', image_url: imageUrl(provider, part) },
  );
  return [{ role: 'user', content }];
}

function parseResponse(boundary: ProviderBoundary, body: unknown): LLMResponse {
  if (!isRecord(body) || !Array.isArray(body.output)) throw boundary.malformed('no output array', body);
  let content = '';
  let refused = false;
  const toolCalls: ToolCall[] = [];
  body.output.forEach((item: unknown, index) => {
    if (!isRecord(item)) throw boundary.malformed(`output[${index}] is not an item`, body);
    if (item.type === 'message') {
      if (!Array.isArray(item.content)) throw boundary.malformed(`output[${index}] is a message without content`, body);
      for (const part of item.content as unknown[]) {
        if (isRecord(part) && part.type === 'output_text') {
          if (typeof part.text !== 'string') throw boundary.malformed(`output[${index}] has an output_text without text`, body);
          content += part.text;
        } else if (isRecord(part) && part.type === 'refusal' && typeof part.refusal === 'string') {
          // The model declined: its explanation is the answer's text.
          content += part.refusal;
          refused = true;
        }
      }
    } else if (item.type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string') {
        throw boundary.malformed(`output[${index}] is a function_call without call_id, name and arguments`, body);
      }
      const parsed = callArguments(item.arguments);
      toolCalls.push(toolCallOf(item.call_id, item.name, parsed.args, parsed));
    }
    // reasoning items and server tool calls carry nothing the port models.
  });
  return {
    content,
    toolCalls,
    stopReason: stopReasonOf(body, toolCalls.length > 0, refused),
    ...optional('usage', parseUsage(boundary, body.usage, body)),
    ...(typeof body.model === 'string' ? { model: body.model } : {}),
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
  };
}
