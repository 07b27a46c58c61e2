/**
 * How a scripted reply streams: its text as the reply's own `chunks`, or cut into pieces of `chars`
 * characters (whole code points, so no character is split), or in one piece; then each tool call,
 * its first fragment carrying id and name, its arguments' JSON cut the same way. Usage and finish
 * follow the chunks (scripted.ts yields them); they are no chunks.
 */
import type { LLMStreamPart } from './stream.js';
import type { LLMResponse } from './types.js';

export interface Chunking {
  /** The reply's text in its own pieces. */
  text?: string[];
  /** Otherwise, cut text and arguments into pieces of this many characters. */
  chars?: number;
}

export function chunksOf(response: LLMResponse, chunking: Chunking): LLMStreamPart[] {
  const parts: LLMStreamPart[] = [];
  const text = chunking.text ?? piecesOf(response.content, chunking.chars);
  for (const delta of text) if (delta !== '') parts.push({ type: 'text', delta });
  for (const [index, call] of response.toolCalls.entries()) {
    const [first = '', ...rest] = piecesOf(JSON.stringify(call.args), chunking.chars);
    parts.push({ type: 'tool_call', index, id: call.id, name: call.name, argumentsDelta: first });
    for (const argumentsDelta of rest) parts.push({ type: 'tool_call', index, argumentsDelta });
  }
  return parts;
}

function piecesOf(text: string, chars: number | undefined): string[] {
  if (chars === undefined || text.length <= chars) return [text];
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += chars) pieces.push(points.slice(i, i + chars).join(''));
  return pieces;
}
