/**
 * The cap on a reply's body (maxResponseBytes), for every wire format (targets.ts) against a real HTTP server:
 * a setting that cannot work is a ConfigError naming it; a body past the cap — announced by its
 * Content-Length or streamed without one, whole or as an event stream, or one endless event — fails
 * with a non-retryable response_too_large after at most the cap was read, the connection closed
 * before the server sent it all, and it is requested once; a body of exactly the cap is accepted.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, type LLMRequest, type LLMStreamPart, type TransportOptions } from '../../../src/runtime/index.js';
import { failureOf, wireServerPerTest } from './perTest.js';
import { drain, readsRecorded, sleep, sse, within } from './streaming.js';
import { targets } from './targets.js';
import { sendJson, writeBody, type BodyStep, type BodyWritten } from './wireServer.js';

const PING: LLMRequest = { model: 'test-model', messages: [{ role: 'user', content: 'ping' }] };
const MiB = 1024 * 1024;
/** 64 MiB in 64 KiB pieces: what a runaway server would send if nobody stopped reading. */
const RUNAWAY_PIECES = 1024;
const PIECE = Buffer.alloc(64 * 1024, 'a');

const serve = wireServerPerTest();

describe.each(targets)('$label maxResponseBytes', (target) => {
  const name = target.make('http://x', {}).name;
  const tooLarge = (cap: number) => ({
    kind: 'response_too_large',
    retryable: false,
    message: `${name}: the answer is larger than maxResponseBytes (${cap} bytes); stopped reading it`,
  });
  const fields = (error: { kind: string; retryable: boolean; message: string } | undefined) =>
    error && { kind: error.kind, retryable: error.retryable, message: error.message };

  /** A server answering every request with `head` and `steps`; `written` holds each answer's outcome. */
  async function serving(steps: () => Iterable<BodyStep>, head?: { headers: Record<string, string> }) {
    const written: Promise<BodyWritten>[] = [];
    const server = await serve((_req, res) => {
      written.push(writeBody(res, steps(), head));
    });
    return { server, written };
  }

  function* runaway(prefix: string): Generator<BodyStep> {
    yield prefix;
    for (let i = 0; i < RUNAWAY_PIECES; i++) yield PIECE;
  }

  it.each([0, -1, Number.NaN, 1.5, Number.POSITIVE_INFINITY])('maxResponseBytes %s is a ConfigError naming the field', (value) => {
    expect(() => target.make('http://127.0.0.1:1', { maxResponseBytes: value })).toThrow(
      new ConfigError(`${name}: maxResponseBytes must be a whole number from 1 to 9007199254740991 (got ${String(value)})`, { field: 'maxResponseBytes' }),
    );
  });

  it('a maxResponseBytes that is not a number is a ConfigError naming the field', () => {
    expect(() => target.make('http://127.0.0.1:1', { maxResponseBytes: '1048576' as unknown as number })).toThrow(
      new ConfigError(`${name}: maxResponseBytes must be a whole number from 1 to 9007199254740991 (got "1048576")`, { field: 'maxResponseBytes' }),
    );
  });

  it('complete(): a 64 MiB JSON body without Content-Length past a 1 MiB cap: response_too_large, read once, closed before the server sent it all', async () => {
    const { server, written } = await serving(() => runaway('{"id":"x","choices":[{"message":{"content":"'), { headers: { 'content-type': 'application/json' } });
    const error = await failureOf(target.make(server.url, { maxResponseBytes: MiB, maxRetries: 2, retryBaseMs: 1 }).complete(PING));
    expect(fields(error)).toEqual(tooLarge(MiB));
    await within(server.requests[0]!.droppedByClient, 2000, 'the request being closed');
    const outcome = await within(written[0]!, 2000, 'the server stopping');
    expect(outcome.complete).toBe(false);
    expect(outcome.bytes).toBeLessThan(RUNAWAY_PIECES * PIECE.byteLength);
    await sleep(50);
    expect(server.requests).toHaveLength(1);
  });

  it('complete(): a Content-Length past the default cap of 32 MiB is refused before a byte of the body is read', async () => {
    const { server, written } = await serving(() => [{ pauseMs: 60_000 }], { headers: { 'content-type': 'application/json', 'content-length': String(32 * MiB + 1) } });
    const error = await within(failureOf(target.make(server.url, { retryBaseMs: 1 }).complete(PING)), 2000, 'the refusal');
    expect(fields(error)).toEqual(tooLarge(32 * MiB));
    await within(server.requests[0]!.droppedByClient, 2000, 'the request being closed');
    expect(await within(written[0]!, 2000, 'the server stopping')).toEqual({ bytes: 0, complete: false });
    expect(server.requests).toHaveLength(1);
  });

  it('complete(): a body of exactly the cap is read; one byte more is refused, with and without Content-Length', async () => {
    const body = JSON.stringify(target.ok);
    const bytes = Buffer.byteLength(body);
    const announced = await serve((_req, res) => sendJson(res, 200, body));
    const chunked = await serving(() => [body.slice(0, 10), { pauseMs: 5 }, body.slice(10)], { headers: { 'content-type': 'application/json' } });
    for (const server of [announced, chunked.server]) {
      expect((await target.make(server.url, { maxResponseBytes: bytes }).complete(PING)).content).toBe('pong');
      expect(fields(await failureOf(target.make(server.url, { maxResponseBytes: bytes - 1 }).complete(PING)))).toEqual(tooLarge(bytes - 1));
    }
  });

  it('stream(): every byte of the stream counts: the parts within the cap, then response_too_large, read once, closed early', async () => {
    const frame = target.text('0123456789');
    const opening = [...target.start, ...Array.from({ length: 10 }, () => frame)].join('');
    const cap = Buffer.byteLength(opening) + 100;
    const { fetch, reads } = readsRecorded();
    const received = () => reads.reduce((sum, read) => sum + read.byteLength, 0);
    const { server, written } = await serving(function* () {
      yield opening;
      yield { until: async () => { while (received() < Buffer.byteLength(opening)) await sleep(2); } };
      for (let i = 0; i < RUNAWAY_PIECES; i++) yield frame.repeat(100);
    });
    const { parts, error } = await drain(target.make(server.url, { maxResponseBytes: cap, maxRetries: 2, retryBaseMs: 1, fetch }).stream!(PING));
    expect(parts).toEqual(Array.from({ length: 10 }, (): LLMStreamPart => ({ type: 'text', delta: '0123456789' })));
    expect(fields(error)).toEqual(tooLarge(cap));
    await within(server.requests[0]!.droppedByClient, 2000, 'the request being closed');
    expect((await within(written[0]!, 2000, 'the server stopping')).complete).toBe(false);
    await sleep(50);
    expect(server.requests).toHaveLength(1);
  });

  it('stream(): one endless event (a data line that never ends) stops at the cap too', async () => {
    const { server, written } = await serving(() => runaway([...target.start, 'data: {"type":"content_block_delta","text":"'].join('')));
    const { parts, error } = await drain(target.make(server.url, { maxResponseBytes: MiB }).stream!(PING));
    expect(parts).toEqual([]);
    expect(fields(error)).toEqual(tooLarge(MiB));
    const outcome = await within(written[0]!, 2000, 'the server stopping');
    expect(outcome.complete).toBe(false);
    expect(outcome.bytes).toBeLessThan(RUNAWAY_PIECES * PIECE.byteLength);
  });
});
