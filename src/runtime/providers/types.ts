/**
 * The LLMProvider port: one request/response shape every model adapter speaks (scripted, Chat
 * Completions, Messages). The runtime only ever sees these types.
 */
import type { TokenUsage } from '../../events/index.js';

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface LLMMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** On a 'tool' message: the call it answers. */
  toolCallId?: string;
  /** On an 'assistant' message: the tool calls the model asked for. */
  toolCalls?: ToolCall[];
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
  usage: TokenUsage;
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
  complete(request: LLMRequest, options?: CompleteOptions): Promise<LLMResponse>;
}
