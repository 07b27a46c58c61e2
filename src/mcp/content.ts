/**
 * Tool arguments and results as span attributes, as their exported view holds them
 * (events/exportedView.ts; the capture setting is the option or the GenAI environment variable): JSON, cut (with the bridge's
 * `…(+N chars)` marker) so one large result cannot blow the span's size.
 */
import { captureFromEnv } from '../events/index.js';

const MAX_MCP_CONTENT_CHARS = 16_000;

export function boundedContent(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    text = '[unserializable]';
  }
  return text.length > MAX_MCP_CONTENT_CHARS ? `${text.slice(0, MAX_MCP_CONTENT_CHARS)}…(+${text.length - MAX_MCP_CONTENT_CHARS} chars)` : text;
}

/** The option if set, else the GenAI content-capture environment variable. */
export function resolveCapture(option: boolean | undefined): boolean {
  return option ?? captureFromEnv();
}
