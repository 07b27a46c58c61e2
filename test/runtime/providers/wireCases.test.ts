/**
 * The shared suite's wire cases and usage, for every HTTP provider (targets.ts) against its own
 * 127.0.0.1 server: a whole answer read into the port's response (text, usage as the API counts it,
 * stop reason, answering model, response id), the same reply streamed (every part, then the very
 * response complete() gives), the request going to the API's path with the API key where the API
 * wants it, and usage absent when the answer has none (never zeros).
 */
import { describe, expect, it } from 'vitest';
import type { LLMRequest } from '../../../src/runtime/providers/index.js';
import { failureOf, wireServerPerTest } from './perTest.js';
import { assembled, drain } from './streaming.js';
import { targets } from './targets.js';
import { sendJson, writeBody } from './wireServer.js';

const PING: LLMRequest = { model: 'test-model', messages: [{ role: 'user', content: 'ping' }] };
const serve = wireServerPerTest();

describe.each(targets)('$label wire cases', (target) => {
  const name = target.make('http://x', {}).name;

  it('complete(): the answer read into text, usage, stop reason, model and id; sent to its path, the key where the API wants it', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, target.ok));
    const response = await target.make(server.url, {}).complete(PING);
    expect(response).toEqual({ content: 'pong', toolCalls: [], ...target.okReads });
    const sent = server.requests[0]!;
    expect({ method: sent.method, path: sent.path }).toEqual({ method: 'POST', path: target.path });
    expect(Object.values(sent.headers).some((value) => typeof value === 'string' && value.includes(target.apiKey))).toBe(true);
  });

  it('stream(): every part in order, then the same response shape complete() gives', async () => {
    const server = await serve((_req, res) => void writeBody(res, [...target.start, target.text('one '), target.text('two '), ...target.end]));
    const { parts, error } = await drain(target.make(server.url, {}).stream!(PING));
    expect(error).toBeUndefined();
    expect(parts).toEqual([{ type: 'text', delta: 'one ' }, { type: 'text', delta: 'two ' }, { type: 'usage', usage: target.endUsage }, target.finish]);
    const { type: _type, ...finish } = target.finish as { type: string };
    expect(assembled(name, parts)).toEqual({ content: 'one two ', toolCalls: [], usage: target.endUsage, ...finish });
    expect(server.requests[0]!.path).toBe(target.streamPath);
  });

  it('an answer without usage has no usage (never zeros)', async () => {
    const withoutUsage = JSON.parse(JSON.stringify(target.ok), (key, value: unknown) => (key === 'usage' || key === 'usageMetadata' ? undefined : value)) as unknown;
    const server = await serve((_req, res) => sendJson(res, 200, withoutUsage));
    const response = await target.make(server.url, {}).complete(PING);
    expect(response.usage).toBeUndefined();
    expect(response.content).toBe('pong');
  });

  it('a negative token count: malformed_response naming the count', async () => {
    const negative = JSON.parse(JSON.stringify(target.ok), (_key, value: unknown) => (value === 9 ? -9 : value)) as unknown;
    const server = await serve((_req, res) => sendJson(res, 200, negative));
    const error = await failureOf(target.make(server.url, {}).complete(PING));
    expect({ kind: error.kind, message: error.message }).toEqual({ kind: 'malformed_response', message: `${name}: malformed response: usage.input is a negative number, not a finite number >= 0` });
  });
});
