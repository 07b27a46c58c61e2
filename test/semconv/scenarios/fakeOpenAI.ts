/**
 * A fake OpenAI Chat Completions server on 127.0.0.1 (the provider tests' wire server) that answers
 * like the real one: a 429 rate limit, a tool call whose usage carries cached and reasoning tokens,
 * and an answer without any usage. `failing` answers every request with the 429.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, startWireServer, type SeenRequest, type WireServer } from '../../runtime/providers/wireServer.js';

export const RESPONSE_MODEL = 'gpt-4o-mini-2024-07-18';

/** The usage the tool-call response reports (OpenAI counts cached tokens inside prompt_tokens). */
export const TOOL_CALL_USAGE = { prompt_tokens: 1200, completion_tokens: 300, cached_tokens: 1024, reasoning_tokens: 192 };

const RATE_LIMITED = { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } };

function rateLimit(res: ServerResponse): void {
  sendJson(res, 429, RATE_LIMITED, { 'retry-after': '0' });
}

function hasToolResult(request: SeenRequest): boolean {
  const body = request.json as { messages: { role: string }[] };
  return body.messages.some((message) => message.role === 'tool');
}

/** First request: 429. Then a tool call (full usage), then after the tool result an answer with no usage. */
export function startFakeOpenAI(): Promise<WireServer> {
  return startWireServer((request, res, index) => {
    if (index === 0) return rateLimit(res);
    if (!hasToolResult(request)) {
      return sendJson(res, 200, {
        id: 'chatcmpl-tool',
        object: 'chat.completion',
        model: RESPONSE_MODEL,
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'call_lookup', type: 'function', function: { name: 'lookup_invoice', arguments: '{"id":"INV-1001"}' } }],
            },
          },
        ],
        usage: {
          prompt_tokens: TOOL_CALL_USAGE.prompt_tokens,
          completion_tokens: TOOL_CALL_USAGE.completion_tokens,
          total_tokens: TOOL_CALL_USAGE.prompt_tokens + TOOL_CALL_USAGE.completion_tokens,
          prompt_tokens_details: { cached_tokens: TOOL_CALL_USAGE.cached_tokens },
          completion_tokens_details: { reasoning_tokens: TOOL_CALL_USAGE.reasoning_tokens },
        },
      });
    }
    return sendJson(res, 200, {
      id: 'chatcmpl-answer',
      object: 'chat.completion',
      model: RESPONSE_MODEL,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'INV-1001 is paid.' } }],
    });
  });
}

/** Every request: 429 rate limit. */
export function startRateLimitedOpenAI(): Promise<WireServer> {
  return startWireServer((_request, res) => rateLimit(res));
}
