/**
 * The LLMProvider port: one request/response shape every model adapter speaks (scripted, Chat
 * Completions, Messages). The runtime only ever sees these types.
 */
import type { ModelServer, TokenUsage } from '../../events/index.js';
import type { LLMStreamPart, StreamOptions } from './stream.js';

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image in a message: exactly one of `data` (base64, no `data:` prefix) or `url`. */
export interface ImagePart {
  readonly type: 'image';
  readonly mediaType: string;
  readonly data?: string;
  readonly url?: string;
}

export type MessagePart = TextPart | ImagePart;

/** One message of a conversation: a model's input, a run's input, a stored thread. */
export interface LLMMessage {
  role: 'user' | 'assistant' | 'tool';
  /** Text, or parts (text and images). */
  content: string | readonly MessagePart[];
  /** On a 'tool' message: the call it answers. */
  toolCallId?: string;
  /** On an 'assistant' message: the tool calls the model asked for. */
  toolCalls?: ToolCall[];
}

/** A message of a conversation, by its public name. */
export type Message = LLMMessage;

/** A message's text: the content itself, or its text parts joined with '\n' (images left out). */
export function messageText(content: LLMMessage['content']): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of content) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}

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
