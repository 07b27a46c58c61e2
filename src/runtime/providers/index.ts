/**
 * providers/ — the LLMProvider port, its typed error, and the adapters (scripted for tests and demos,
 * Chat Completions, Responses, Messages and Gemini for real models), with the response checks and the cancellation
 * error the agent's model call uses. Depends on events/ and run/ (ConfigError, settings checks,
 * the fixed error.type values) only.
 */
export {
  messageText,
  type CompleteOptions,
  type ImagePart,
  type LLMMessage,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  type Message,
  type MessagePart,
  type ReasoningEffort,
  type ResponseFormat,
  type TextPart,
  type ToolCall,
  type ToolChoice,
  type ToolSpec,
} from './types.js';
export { partsOf, StreamAssembler, streamFrom, type LLMStreamPart, type StreamOptions } from './stream.js';
export { isProviderError, ProviderError, type ProviderErrorKind } from './errors.js';
export { cancelled } from './retry.js';
export { decoded, redactor, urlSecrets, type Redactor } from './redact.js';
export { validateResponse } from './validateResponse.js';
export { argumentsText } from './toolArguments.js';
export { scripted, type ScriptedOptions, type ScriptedReply } from './scripted.js';
export type { FetchLike, TransportOptions } from './transport.js';
export { openaiCompatible, type OpenAICompatibleOptions } from './openaiCompatible.js';
export { anthropic, type AnthropicOptions } from './anthropic.js';
export { openaiResponses, type OpenAIResponsesOptions } from './openaiResponses.js';
export { gemini, type GeminiOptions } from './gemini.js';
