/** A tool call's arguments as the OpenAI formats send them: a JSON string the model wrote (models do get it wrong). */
import type { ProviderBoundary } from './boundary.js';
import { isRecord } from './guards.js';

/** The arguments object; empty text means none; text that is not a JSON object is a malformed_response. */
export function parseArguments(boundary: ProviderBoundary, tool: string, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    throw boundary.malformed(`arguments for tool '${tool}' are not valid JSON`, text);
  }
  if (!isRecord(args)) throw boundary.malformed(`arguments for tool '${tool}' are not a JSON object`, text);
  return args;
}
