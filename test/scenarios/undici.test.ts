/**
 * The chat span is the active span for the whole provider call: with OTel's own undici
 * instrumentation registered, the HTTP client span of a real Chat Completions request (fetch to a
 * node:http server on 127.0.0.1) nests under `chat {model}`, in the run's trace.
 */
import { SpanKind } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, openaiCompatible } from '../../src/runtime/index.js';
import { sendJson, startWireServer, type WireServer } from '../runtime/providers/wireServer.js';
import { runInputParts } from '../support/lineageLinks.js';
import { startSdk } from '../support/sdk.js';
import { childrenOf, structure } from '../support/traceTree.js';

const sdk = startSdk();
let server: WireServer;
let unregisterInstrumentation: () => void;

beforeAll(async () => {
  unregisterInstrumentation = registerInstrumentations({ instrumentations: [new UndiciInstrumentation()], tracerProvider: sdk.provider });
  server = await startWireServer((_request, res) =>
    sendJson(res, 200, {
      id: 'chatcmpl-1',
      model: 'gpt-test-2026',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello over HTTP.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 4 },
    }),
  );
});

afterAll(async () => {
  unregisterInstrumentation();
  await server.close();
  await sdk.shutdown();
});

describe('provider HTTP spans', () => {
  it('nest under the chat span', async () => {
    const provider = openaiCompatible({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
    const agent = Agent.create({ provider, model: 'gpt-test', name: 'Web' }).build();
    expect((await agent.run('hi')).text).toBe('Hello over HTTP.');
    expect(server.requests).toHaveLength(1);
    const spans = sdk.spans();
    const chat = spans.find((s) => s.name === 'chat gpt-test')!;
    // A chat span over real HTTP: the response id and model, and the server it called.
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': 'gpt-test-2026',
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 4,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.url).port),
      'footprint.agent': 'agent',
      'footprint.brain': 'default',
      'footprint.iteration': 1,
      'footprint.llm.call_id': expect.stringMatching(/^call_[0-9a-z]+$/),
      ...runInputParts(1),
      'footprint.cost.priced': false,
      'footprint.cost.usd': 0,
    });
    const children = childrenOf(spans, chat);
    expect(children.map((s) => s.name)).toEqual(['POST']);
    const http = children[0]!;
    expect(http.kind).toBe(SpanKind.CLIENT);
    expect(http.name).toBe('POST');
    expect(http.attributes['http.request.method']).toBe('POST');
    expect(String(http.attributes['url.full'])).toBe(`${server.url}/v1/chat/completions`);
    expect(http.attributes['http.response.status_code']).toBe(200);
    expect(structure(spans).traceIds).toHaveLength(1);
  });
});
