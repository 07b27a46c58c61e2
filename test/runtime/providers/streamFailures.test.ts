/**
 * How a streamed model call fails and ends early, for every wire format (targets.ts), against a real HTTP server
 * writing the event stream byte for byte: a malformed data line, a connection reset and a body cut
 * short mid-stream (the parts before kept, then a typed error naming what broke, never retried); a
 * consumer that breaks after the first part, an abort mid-stream and a consumer that stops reading
 * (the server sees the connection closed; the body is pulled, never buffered ahead); HTTP errors
 * before the first byte mapped and retried exactly as complete() maps and retries them.
 */
import { describe, expect, it } from 'vitest';
import type { LLMRequest, LLMStreamPart, TransportOptions } from '../../../src/runtime/providers/index.js';
import { captureContent } from './capture.js';
import { failureOf, wireServerPerTest } from './perTest.js';
import { drain, sleep, sse, within } from './streaming.js';
import { targets } from './targets.js';
import { sendJson, writeBody, type BodyStep, type BodyWritten } from './wireServer.js';

const PING: LLMRequest = { model: 'test-model', messages: [{ role: 'user', content: 'ping' }] };
const FAST: TransportOptions = { retryBaseMs: 1 };
const TEXT_PARTS: LLMStreamPart[] = [
  { type: 'text', delta: 'one ' },
  { type: 'text', delta: 'two ' },
];
/** A pause far longer than any test waits: the stream is still open when the test acts. */
const HOLD: BodyStep = { pauseMs: 60_000 };

const serve = wireServerPerTest();

describe.each(targets)('$label stream() failures and early ends', (target) => {
  const opening = [...target.start, target.text('one '), target.text('two ')];
  const openingBytes = Buffer.byteLength(opening.join(''));
  const name = target.make('http://x', {}).name;

  /** A server writing `steps` as its one answer; `written` settles when it stopped writing. */
  async function streaming(steps: BodyStep[]) {
    let written!: Promise<BodyWritten>;
    const server = await serve((_req, res) => {
      written = writeBody(res, steps);
    });
    return { server, written: () => written };
  }

  it('a malformed data line: the parts before it, then malformed_response naming the event, not retried', async () => {
    const { server } = await streaming([...opening, 'data: {"id": "x", "choices": [\n\n', ...target.end]);
    const { parts, error } = await drain(target.make(server.url, FAST).stream!(PING));
    expect(parts).toEqual(TEXT_PARTS);
    expect({ kind: error?.kind, retryable: error?.retryable, message: error?.message }).toEqual({
      kind: 'malformed_response',
      retryable: false,
      message: `${name}: malformed response: event ${opening.length + 1} of the stream is not JSON`,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('an error event echoing the API key, under content capture: the key is REDACTED in the message and the raw event', async () => {
    captureContent();
    const key = target.apiKey;
    const { server } = await streaming([...opening, target.errorEvent('api_error', `Invalid key ${key}-padding`)]);
    const { parts, error } = await drain(target.make(server.url, FAST).stream!(PING));
    expect(parts).toEqual(TEXT_PARTS);
    expect(error?.message).toBe(`${name}: the server reported an error in event ${opening.length + 1} of the stream${target.errorEventLabel('api_error')}: Invalid key REDACTED-padding`);
    expect(error?.raw).toContain('Invalid key REDACTED-padding');
    expect(error?.raw).not.toContain(key);
  });

  it('a connection reset mid-stream: the parts before it, then network naming what broke and after how many bytes, not retried', async () => {
    const { server } = await streaming([...opening, { pauseMs: 20 }, 'reset']);
    const { parts, error } = await drain(target.make(server.url, FAST).stream!(PING));
    expect(parts).toEqual(TEXT_PARTS);
    expect({ kind: error?.kind, retryable: error?.retryable }).toEqual({ kind: 'network', retryable: true });
    // The socket's own code: a reset read as ECONNRESET, or, when undici sees the socket close first
    // (it happened once on a loaded machine), UND_ERR_SOCKET. Either names what broke.
    const failedAfter = `${name}: reading the answer from ${server.url}${target.streamPath} failed after ${openingBytes} bytes`;
    expect([`${failedAfter} (ECONNRESET)`, `${failedAfter} (UND_ERR_SOCKET)`]).toContain(error?.message);
    expect(server.requests).toHaveLength(1);
  });

  it('a body that ends before the finish: the parts before, then malformed_response, not retried', async () => {
    const { server } = await streaming(opening);
    const { parts, error } = await drain(target.make(server.url, FAST).stream!(PING));
    expect(parts).toEqual(TEXT_PARTS);
    expect({ kind: error?.kind, retryable: error?.retryable, message: error?.message }).toEqual({
      kind: 'malformed_response',
      retryable: false,
      message: target.endedEarly,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a stream that stalls past timeoutMs: timeout after the parts before, not retried', async () => {
    const { server } = await streaming([...opening, HOLD]);
    // A deadline the opening bytes meet on a loaded machine (150 ms failed once beside a full test run).
    const { parts, error } = await drain(target.make(server.url, { ...FAST, timeoutMs: 1000 }).stream!(PING));
    expect(parts).toEqual(TEXT_PARTS);
    expect({ kind: error?.kind, message: error?.message }).toEqual({
      kind: 'timeout',
      message: `${name}: the stream stalled: no bytes for 1000 ms after ${openingBytes} bytes`,
    });
    await within(server.requests[0]!.droppedByClient, 2000, 'the stalled request being dropped');
    expect(server.requests).toHaveLength(1);
  });

  it('a consumer slower than timeoutMs is no timeout: the deadline only bounds waiting for the server', async () => {
    // The server sends every event at once, so only the consumer is slow: each part is held past the
    // deadline. (A server pause between events made this a race with the machine's load: on a busy
    // machine a 20 ms pause could outlast a 100 ms deadline, a real stall.)
    const { server } = await streaming([...opening, ...target.end]);
    const parts: LLMStreamPart[] = [];
    for await (const part of target.make(server.url, { ...FAST, timeoutMs: 300 }).stream!(PING)) {
      parts.push(part);
      await sleep(400);
    }
    expect(parts.filter((part) => part.type !== 'usage')).toEqual([...TEXT_PARTS, target.finish]);
  });

  it('a consumer that breaks after the first part: the request is closed on the wire before the server finished', async () => {
    const { server, written } = await streaming([...opening, HOLD, ...target.end]);
    const seen: LLMStreamPart[] = [];
    for await (const part of target.make(server.url, FAST).stream!(PING)) {
      seen.push(part);
      break;
    }
    expect(seen).toEqual([TEXT_PARTS[0]]);
    await within(server.requests[0]!.droppedByClient, 2000, 'the request being closed');
    expect(await within(written(), 2000, 'the server stopping')).toEqual({ bytes: openingBytes, complete: false });
  });

  it('an abort while the next part is awaited: aborted with the reason, the request closed on the wire, nothing retried', async () => {
    const { server, written } = await streaming([...opening, HOLD, ...target.end]);
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const parts = target.make(server.url, { ...FAST, maxRetries: 2 }).stream!(PING, { signal: controller.signal })[Symbol.asyncIterator]();
    expect([(await parts.next()).value, (await parts.next()).value]).toEqual(TEXT_PARTS);
    const pending = failureOf(parts.next());
    await sleep(20);
    controller.abort(reason);
    const error = await within(pending, 2000, 'the aborted stream failing');
    expect({ kind: error.kind, retryable: error.retryable, cause: error.cause }).toEqual({ kind: 'aborted', retryable: false, cause: reason });
    await within(server.requests[0]!.droppedByClient, 2000, 'the request being closed');
    expect(await within(written(), 2000, 'the server stopping')).toEqual({ bytes: openingBytes, complete: false });
    await sleep(50);
    expect(server.requests).toHaveLength(1);
  });

  it('an abort between two parts already received: the second is not handed out', async () => {
    const { server } = await streaming([opening.join(''), HOLD, ...target.end]);
    const controller = new AbortController();
    const parts = target.make(server.url, FAST).stream!(PING, { signal: controller.signal })[Symbol.asyncIterator]();
    expect((await parts.next()).value).toEqual(TEXT_PARTS[0]);
    controller.abort();
    expect((await failureOf(parts.next())).kind).toBe('aborted');
    await within(server.requests[0]!.droppedByClient, 2000, 'the request being closed');
  });

  it('a consumer that stops reading: the body is pulled, so the server is held back, and a break then closes it', async () => {
    const frame = target.text('x'.repeat(500));
    const frames = 80_000; // about 40 MB: far more than the socket buffers between the two ends
    let handedOut = 0;
    function* body(): Generator<BodyStep> {
      yield* target.start;
      for (let i = 0; i < frames; i++) {
        handedOut++;
        yield frame;
      }
      yield* target.end;
    }
    let written!: Promise<BodyWritten>;
    const server = await serve((_req, res) => {
      written = writeBody(res, body());
    });
    const parts = target.make(server.url, FAST).stream!(PING)[Symbol.asyncIterator]();
    expect((await parts.next()).value).toEqual({ type: 'text', delta: 'x'.repeat(500) });
    await sleep(300);
    const heldAt = handedOut;
    await sleep(200);
    // The writer waits on backpressure: nothing more left the server while nobody read.
    expect(handedOut).toBe(heldAt);
    expect(heldAt * Buffer.byteLength(frame)).toBeLessThan(16 * 1024 * 1024);
    await parts.return!(undefined);
    await within(server.requests[0]!.droppedByClient, 2000, 'the request being closed');
    expect((await within(written, 2000, 'the server stopping')).complete).toBe(false);
  });

  it('HTTP 429 before the first byte: retried after Retry-After as complete() retries, then the stream', async () => {
    const server = await serve((_req, res, index) => {
      if (index === 0) sendJson(res, 429, target.errorBody('rate_limit_error', 'Rate limit reached', 429), { 'retry-after': '0.05' });
      else void writeBody(res, [...opening, ...target.end]);
    });
    const { parts, error } = await drain(target.make(server.url, FAST).stream!(PING));
    expect(error).toBeUndefined();
    expect(parts.filter((part) => part.type !== 'usage')).toEqual([...TEXT_PARTS, target.finish]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.json).toEqual(server.requests[0]!.json);
  });

  it('HTTP 400 before the stream: the very error complete() gives, not retried', async () => {
    const server = await serve((_req, res) => sendJson(res, 400, target.errorBody('invalid_request_error', 'max_tokens: must be positive')));
    const provider = target.make(server.url, FAST);
    const streamed = (await drain(provider.stream!(PING))).error;
    const completed = await failureOf(provider.complete(PING));
    expect(streamed).toBeDefined();
    const fields = (e: typeof completed) => ({ kind: e.kind, status: e.status, retryable: e.retryable, message: e.message, raw: e.raw });
    expect(fields(streamed!)).toEqual(fields(completed));
    expect(fields(completed)).toEqual({ kind: 'http', status: 400, retryable: false, message: `${name}: HTTP 400${target.errorLabel('invalid_request_error')}`, raw: undefined });
    expect(server.requests).toHaveLength(2);
  });

  it('nothing is sent until the first part is asked for, and an already-aborted signal sends nothing', async () => {
    const server = await serve((_req, res) => void writeBody(res, [...opening, ...target.end]));
    const provider = target.make(server.url, FAST);
    provider.stream!(PING);
    const { parts, error } = await drain(provider.stream!(PING, { signal: AbortSignal.abort() }));
    expect(parts).toEqual([]);
    expect(error?.kind).toBe('aborted');
    await sleep(50);
    expect(server.requests).toHaveLength(0);
  });
});
