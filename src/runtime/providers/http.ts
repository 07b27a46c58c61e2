/**
 * The HTTP plumbing both wire-format providers share: a JSON POST answered by one JSON body
 * (`complete()`) or by server-sent events (`stream()`), each attempt an Exchange (exchange.ts), in
 * bounded retries. A JSON answer is retried whole; an event stream only until its answer's headers
 * arrived, so nothing read from a stream is ever fetched twice. The providers themselves only
 * translate shapes.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Exchange, type Post } from './exchange.js';
import { cancelled, withRetry, type RetryPolicy } from './retry.js';
import type { TransportSettings } from './transport.js';

/** POSTs `post.body` as JSON with retries; resolves to the parsed JSON of a 2xx answer. */
export function postJson(post: Post, settings: TransportSettings): Promise<unknown> {
  return withRetry(async () => {
    const exchange = new Exchange(post, settings, 'whole');
    try {
      const response = await exchange.open();
      const text = await exchange.text();
      try {
        return JSON.parse(text) as unknown;
      } catch {
        // The parser's own message quotes the body, so it is not kept as the cause.
        throw post.boundary.malformed(`HTTP ${response.status} answer is not JSON`, text);
      }
    } finally {
      exchange.close();
    }
  }, policyOf(post, settings));
}

/**
 * POSTs `post.body` and yields the server-sent events of the 2xx answer, pulled: the body is read
 * only when no parsed event is waiting. Ending the iteration early closes the connection.
 */
export async function* postForEvents(post: Post, settings: TransportSettings): AsyncGenerator<EventSourceMessage> {
  const exchange = await withRetry(async () => {
    const attempt = new Exchange(post, settings, 'each_read');
    try {
      const response = await attempt.open();
      const type = response.headers.get('content-type');
      if (type !== null && !/^text\/event-stream\b/i.test(type)) {
        const why = `HTTP ${response.status} answer is not an event stream${mediaType(type)}`;
        throw post.boundary.malformed(why, await attempt.text('truncate'));
      }
      return attempt;
    } catch (error) {
      attempt.close();
      throw error;
    }
  }, policyOf(post, settings));
  try {
    const decoder = new TextDecoder();
    const parsed: EventSourceMessage[] = [];
    // Comments (`: keep-alive`), retry hints and unknown fields carry nothing for a single request.
    const parser = createParser({ onEvent: (event) => parsed.push(event) });
    for (;;) {
      while (parsed.length > 0) {
        // Parts already received are not handed out after the caller cancelled.
        if (post.signal?.aborted) throw cancelled(post.boundary.provider, post.signal.reason);
        yield parsed.shift()!;
      }
      const bytes = await exchange.read();
      // At the end, an event without its closing blank line is discarded, as the SSE format says.
      if (bytes === undefined) return;
      parser.feed(decoder.decode(bytes, { stream: true }));
    }
  } finally {
    exchange.close();
  }
}

function policyOf(post: Post, settings: TransportSettings): RetryPolicy {
  return { provider: post.boundary.provider, maxRetries: settings.maxRetries, baseMs: settings.retryBaseMs, signal: post.signal };
}

/** ` (content-type application/json)`, when the header names a media type (it is server text). */
function mediaType(header: string): string {
  const type = /^[\w.+-]{1,64}\/[\w.+-]{1,64}/.exec(header)?.[0];
  return type === undefined ? '' : ` (content-type ${type})`;
}
