/**
 * What every HTTP provider does with the request controls and message parts before it writes its own
 * wire shape: refuse what its API has no means for (a ConfigError naming the provider and the field,
 * never a silently dropped setting), check an image part (exactly one of data or url), and write an
 * image as the data: URL the OpenAI formats take.
 */
import { ConfigError } from '../run/index.js';
import { messageText, type ImagePart, type LLMMessage, type LLMRequest, type MessagePart } from './types.js';

/** The request fields a provider may have no means for. */
export type ControlField = 'toolChoice' | 'reasoningEffort' | 'responseFormat';

/** Refuses `field` when the request sets it: `provider` has no such thing. */
export function refuseControl(provider: string, request: LLMRequest, field: ControlField, why: string): void {
  if (request[field] !== undefined) throw new ConfigError(`${provider}: ${field} is not supported (${why})`, { field });
}

/** The one tool a toolChoice names, checked to be one of the request's tools. */
export function chosenTool(provider: string, request: LLMRequest): string | undefined {
  const choice = request.toolChoice;
  if (choice === undefined || typeof choice === 'string') return undefined;
  if (!request.tools?.some((tool) => tool.name === choice.name)) {
    throw new ConfigError(`${provider}: toolChoice names "${choice.name}", which is not one of the request's tools`, { field: 'toolChoice' });
  }
  return choice.name;
}

/** The message's parts: its text as one text part when it is a string. */
export function contentParts(content: LLMMessage['content']): readonly MessagePart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** An image part, checked: exactly one of data or url, and a media type. */
export function checkedImage(provider: string, part: ImagePart): { mediaType: string; data: string } | { mediaType: string; url: string } {
  const hasData = typeof part.data === 'string' && part.data !== '';
  const hasUrl = typeof part.url === 'string' && part.url !== '';
  if (hasData === hasUrl) throw new ConfigError(`${provider}: an image part needs exactly one of data or url`, { field: 'content' });
  if (typeof part.mediaType !== 'string' || part.mediaType === '') {
    throw new ConfigError(`${provider}: an image part needs its mediaType`, { field: 'content' });
  }
  return hasData ? { mediaType: part.mediaType, data: part.data! } : { mediaType: part.mediaType, url: part.url! };
}

/** The image as a URL: its own, or its bytes as a data: URL (what Chat Completions and Responses take). */
export function imageUrl(provider: string, part: ImagePart): string {
  const image = checkedImage(provider, part);
  return 'url' in image ? image.url : `data:${image.mediaType};base64,${image.data}`;
}

/** The text of a message whose role takes no images (an assistant's or a tool's); an image there is refused. */
export function textOnly(provider: string, message: LLMMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (message.content.some((part) => part.type !== 'text')) {
    throw new ConfigError(`${provider}: an image part is only sent in a user message, not in ${message.role} messages`, { field: 'content' });
  }
  return messageText(message.content);
}
