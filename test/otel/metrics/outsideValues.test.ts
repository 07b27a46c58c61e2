/**
 * Metric series do not grow with traffic when the values come from outside: 300 runs against a real
 * Chat Completions server on 127.0.0.1 that names a new response model in every reply, answers every
 * fifth request with a new HTTP error status, and whose model asks for a new (unknown) tool name in
 * every first turn. The series counts after 30 runs and after 300 are equal: a response model other
 * than the request model is one of the first MAX_OUTSIDE_VALUES seen, else `_OTHER`; a model call's
 * error.type is one of the documented values, else `_OTHER`; tool names never become attributes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/index.js';
import { MAX_OUTSIDE_VALUES, OTHER_VALUE } from '../../../src/otel/metrics/index.js';
import { openaiCompatible } from '../../../src/runtime/providers/index.js';
import { sendJson, startWireServer, type WireServer } from '../../runtime/providers/wireServer.js';
import { type Collection, meteredRuns } from '../../support/meter.js';

const meter = meteredRuns();

let server: WireServer;
beforeAll(async () => {
  server = await startWireServer((request, res, index) => {
    // unregistered statuses (none of 460-489 is an HTTP status code): a new error value every time
    if (index % 5 === 4) return sendJson(res, 460 + (index % 30), { error: { message: `no ${index}` } });
    const firstTurn = (request.json as { messages: unknown[] }).messages.length === 1;
    const message = firstTurn
      ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${index}`, type: 'function', function: { name: `tool_${index}`, arguments: '{}' } }] }
      : { role: 'assistant', content: 'done' };
    sendJson(res, 200, {
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      model: `served-${index}`,
      choices: [{ index: 0, message, finish_reason: firstTurn ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
  });
});
afterAll(() => server.close());

const seriesCount = (c: Collection) => c.names().reduce((n, name) => n + c.series(name).length, 0);
const valuesOf = (c: Collection, name: string, key: string) => [...new Set(c.series(name).map((s) => s.attributes[key]))].sort();

describe('300 runs against a server and a model that invent a new value every time', () => {
  it('leave the series count of the first 30 runs', async () => {
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: `${server.url}/v1/`, name: 'inventive' }), model: 'asked-model', id: 'desk' })
      .tool({ name: 'lookup', description: 'Look up', inputSchema: { type: 'object' }, execute: () => 'found' })
      .build();
    const runs = async (count: number) => {
      for (let i = 0; i < count; i++) await agent.run(`ticket ${i}`).catch(() => undefined);
    };
    await runs(30);
    const early = await meter.collect();
    await runs(270);
    const late = await meter.collect();

    expect(seriesCount(late)).toBe(seriesCount(early));
    for (const name of late.names()) expect([name, late.series(name).length]).toEqual([name, early.series(name).length]);
    const responseModels = valuesOf(late, 'gen_ai.client.operation.duration', 'gen_ai.response.model').filter((v) => v !== undefined);
    expect(responseModels).toHaveLength(MAX_OUTSIDE_VALUES + 1);
    expect(responseModels).toContain(OTHER_VALUE);
    expect(valuesOf(late, 'gen_ai.client.operation.duration', 'error.type')).toEqual([OTHER_VALUE, undefined]);
    // every run asks once or twice (a failed first call ends it): the server was asked 500 times in all
    expect(server.requests.length).toBe(500);
  }, 180_000);
});
