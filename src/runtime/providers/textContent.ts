/**
 * A message's content for a wire format that carries text only: its text, or a ConfigError naming the
 * provider when the message holds an image part it cannot send (images are never dropped in silence).
 */
import { ConfigError } from '../run/index.js';
import { messageText, type LLMMessage } from './types.js';

export function textContent(provider: string, content: LLMMessage['content']): string {
  if (typeof content !== 'string' && content.some((part: { type: string }) => part.type !== 'text')) {
    throw new ConfigError(`provider "${provider}" cannot send an image part in a message; give it text only, or use a provider that takes images`, { field: 'messages' });
  }
  return messageText(content);
}
