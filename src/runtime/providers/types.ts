/**
 * The LLMProvider port: one request/response shape every model adapter speaks (scripted, Chat
 * Completions, Messages). The runtime only ever sees these types.
 */
import type { ModelServer, TokenUsage } from '../../events/index.js';
import type { LLMStreamPart, StreamOptions } from './streamPart.js';

// The message types live in run/ (a run takes a conversation); this is their home for providers.
export { messageText, type ImagePart, type LLMMessage, type Message, type MessagePart, type TextPart, type ToolCall } from '../run/index.js';
import type { LLMMessage, ToolCall } from '../run/index.js';


export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface LLMRequest {
  model: string;
  systemPrompt?: string;
  messages: LLMMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
  /** Whether and which tool the model must call: one tool by its name. */
  toolChoice?: ToolChoice;
  /** How much the model reasons before answering, on providers with reasoning models. */
  reasoningEffort?: ReasoningEffort;
  /** Structured output: the provider's native means (OpenAI response_format json_schema, Anthropic tool forcing, Gemini responseSchema). */
  responseFormat?: ResponseFormat;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export interface ResponseFormat {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly strict?: boolean;
}

export interface LLMResponse {
  content: string;
  toolCalls: ToolCall[];
  /**
   * The token counts the provider reported; absent when it reported none (a server that sends no
   * usage block). Never zeros standing in for an unknown: telemetry reports usage only when obtained.
   */
  usage?: TokenUsage;
  /** Normalised: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | provider-specific. */
  stopReason: string;
  /** The model that actually answered, when the provider says. */
  model?: string;
  /** The provider's response id, when it gives one. */
  id?: string;
  /** The stored response this request continued (the Responses API's previous_response_id), when it did. */
  previousResponseId?: string;
}

export interface CompleteOptions {
  signal?: AbortSignal;
}

export interface LLMProvider {
  /** Provider name as OTel GenAI semconv spells it where one exists: 'openai', 'anthropic', ... */
  readonly name: string;
  /**
   * The server the provider talks to, for the GenAI conventions' server.address / server.port:
   * from the base URL, without credentials, the scheme's default port when the URL names none.
   * HTTP providers set it; scripted and custom providers may leave it out.
   */
  readonly server?: ModelServer;
  /**
   * The wire format sends the system prompt as the first message of the history (OpenAI's chat
   * completions), not apart from it (Anthropic's `system`): telemetry then records it as the first
   * input message, as the GenAI conventions ask, instead of as system instructions.
   */
  readonly systemPromptInHistory?: boolean;
  complete(request: LLMRequest, options?: CompleteOptions): Promise<LLMResponse>;
  /**
   * The reply as it is generated, pulled part by part (see stream.ts for the parts' contract).
   * Optional: a provider without it streams its `complete()` reply as one chunk. Ending the
   * iteration early (`return()`) or aborting `signal` must release the request.
   */
  stream?(request: LLMRequest, options?: StreamOptions): AsyncIterable<LLMStreamPart>;
}
