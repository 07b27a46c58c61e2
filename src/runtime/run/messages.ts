/**
 * Messages: one type for a model's input, a run's conversation and a run's new messages. A run takes
 * them (runner.ts), a conversation store keeps them (conversationStore.ts), providers send them
 * (providers/ re-exports them with the LLMProvider port).
 */

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /**
   * Opaque: what the provider returned with the call and needs back with it, sent back as it came
   * (Gemini's `thoughtSignature`: Gemini 3 refuses a request whose function calls of the current
   * turn lost theirs). The conversation keeps it (stores, checkpoints, a run's new messages);
   * telemetry never records it. Providers that gave none ignore it.
   */
  signature?: string;
  /**
   * The arguments as the model wrote them, when they were no JSON object (`args` is then `{}`): the
   * call is not run, its result tells the model so, and the text is sent back as written.
   */
  argsText?: string;
}

/**
 * A tool call with `signature` and `argsText` taken from `extras` only when they are strings: the one
 * place a call is made or copied with its optional fields, so none is dropped and no key is set undefined.
 */
export function toolCallOf(id: string, name: string, args: Record<string, unknown>, extras: { readonly signature?: unknown; readonly argsText?: unknown } = {}): ToolCall {
  const call: ToolCall = { id, name, args };
  if (typeof extras.signature === 'string') call.signature = extras.signature;
  if (typeof extras.argsText === 'string') call.argsText = extras.argsText;
  return call;
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
