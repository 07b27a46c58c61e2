/**
 * openaiCompatible() against a real HTTP server speaking Chat Completions: the exact request it
 * sends (path, headers, body with tool schemas and a tool-call round trip) and how it reads
 * recorded-shape answers from OpenAI and Ollama.
 */
import { describe, expect, it } from 'vitest';
import { openaiCompatible, type LLMRequest } from '../../../src/runtime/providers/index.js';
import { captureContent } from './capture.js';
import { openaiUsage } from './openaiWire.js';
import { failureOf, onlyPost, wireServerPerTest } from './perTest.js';
import { sendJson } from './wireServer.js';

/** Shaped like a real gpt-4o answer that calls two tools. */
const TOOL_CALL_COMPLETION = {
  id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
  object: 'chat.completion',
  created: 1741569952,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Paris, France","unit":"celsius"}' },
          },
          {
            id: 'call_ABSg8ccnVFEDmmYWknYrB4ev',
            type: 'function',
            function: { name: 'get_time', arguments: '{}' },
          },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: openaiUsage({ prompt: 1302, completion: 52, cached: 1152 }),
  service_tier: 'default',
  system_fingerprint: 'fp_fc9f1d7035',
};

/** Shaped like Ollama's /v1/chat/completions answer: no prompt_tokens_details. */
const OLLAMA_COMPLETION = {
  id: 'chatcmpl-457',
  object: 'chat.completion',
  created: 1736938234,
  model: 'llama3.2',
  system_fingerprint: 'fp_ollama',
  choices: [{ index: 0, message: { role: 'assistant', content: 'It is 18°C and sunny in Paris.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 96, completion_tokens: 11, total_tokens: 107 },
};

const WEATHER_SCHEMA = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'City and country' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['location'],
  additionalProperties: false,
};

const serve = wireServerPerTest();

function completionWith(patch: { message?: Record<string, unknown>; finish_reason?: unknown; usage?: unknown }) {
  const choice = OLLAMA_COMPLETION.choices[0];
  return {
    ...OLLAMA_COMPLETION,
    choices: [{ ...choice, message: { ...choice.message, ...patch.message }, finish_reason: 'finish_reason' in patch ? patch.finish_reason : 'stop' }],
    ...('usage' in patch ? { usage: patch.usage } : {}),
  };
}

describe('openaiCompatible', () => {
  it('sends the exact Chat Completions request and reads a tool-call answer', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, TOOL_CALL_COMPLETION));
    const provider = openaiCompatible({
      baseURL: `${server.url}/v1`,
      apiKey: 'sk-test-123',
      headers: { 'openai-project': 'proj_abc' },
    });
    const request: LLMRequest = {
      model: 'gpt-4o',
      systemPrompt: 'You are a weather assistant.',
      messages: [
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'call_1', name: 'get_weather', args: { location: 'Paris, France' } },
            { id: 'call_2', name: 'get_weather', args: { location: 'Tokyo, Japan', unit: 'celsius' } },
          ],
        },
        { role: 'tool', toolCallId: 'call_1', content: '{"temp":18}' },
        { role: 'tool', toolCallId: 'call_2', content: '{"temp":24}' },
        { role: 'assistant', content: 'Paris 18°C, Tokyo 24°C.' },
        { role: 'user', content: 'And what time is it?' },
      ],
      tools: [
        { name: 'get_weather', description: 'Current weather for a city', inputSchema: WEATHER_SCHEMA },
        { name: 'get_time', description: 'Current time', inputSchema: { type: 'object', properties: {} } },
      ],
      temperature: 0.2,
      maxTokens: 256,
    };

    const response = await provider.complete(request);

    expect(provider.name).toBe('openai');
    const sent = onlyPost(server, '/v1/chat/completions', {
      authorization: 'Bearer sk-test-123',
      'content-type': 'application/json',
      'openai-project': 'proj_abc',
    });
    expect(sent.json).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a weather assistant.' },
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' } },
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Tokyo, Japan","unit":"celsius"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":18}' },
        { role: 'tool', tool_call_id: 'call_2', content: '{"temp":24}' },
        { role: 'assistant', content: 'Paris 18°C, Tokyo 24°C.' },
        { role: 'user', content: 'And what time is it?' },
      ],
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Current weather for a city', parameters: WEATHER_SCHEMA } },
        { type: 'function', function: { name: 'get_time', description: 'Current time', parameters: { type: 'object', properties: {} } } },
      ],
      temperature: 0.2,
      max_tokens: 256,
    });

    expect(response).toEqual({
      content: '',
      toolCalls: [
        { id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', args: { location: 'Paris, France', unit: 'celsius' } },
        { id: 'call_ABSg8ccnVFEDmmYWknYrB4ev', name: 'get_time', args: {} },
      ],
      usage: { input: 1302, output: 52, cacheRead: 1152, reasoning: 0 },
      stopReason: 'tool_use',
      model: 'gpt-4o-2024-08-06',
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    });
  });

  it('omits unset fields and Authorization for a keyless local server (Ollama)', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, OLLAMA_COMPLETION));
    const provider = openaiCompatible({ baseURL: `${server.url}/v1/`, name: 'ollama' });

    const response = await provider.complete({ model: 'llama3.2', messages: [{ role: 'user', content: 'Weather in Paris?' }] });

    expect(provider.name).toBe('ollama');
    const sent = onlyPost(server, '/v1/chat/completions', { authorization: undefined });
    expect(sent.json).toEqual({ model: 'llama3.2', messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(response).toEqual({
      content: 'It is 18°C and sunny in Paris.',
      toolCalls: [],
      usage: { input: 96, output: 11 },
      stopReason: 'end_turn',
      model: 'llama3.2',
      id: 'chatcmpl-457',
    });
  });

  it('normalises finish reasons and passes unknown ones through', async () => {
    const reasons = ['length', 'content_filter', 'eos_token', null];
    const server = await serve((_req, res, i) => sendJson(res, 200, completionWith({ finish_reason: reasons[i] })));
    const provider = openaiCompatible({ baseURL: server.url });
    const stops: string[] = [];
    for (let i = 0; i < reasons.length; i++) {
      stops.push((await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).stopReason);
    }
    expect(stops).toEqual(['max_tokens', 'content_filter', 'eos_token', 'unknown']);
  });

  it('keeps text content that comes alongside tool calls, and reads empty arguments as {}', async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        200,
        completionWith({
          message: {
            content: 'Let me check.',
            tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'get_time', arguments: '' } }],
          },
          finish_reason: 'tool_calls',
        }),
      ),
    );
    const response = await openaiCompatible({ baseURL: server.url }).complete({ model: 'm', messages: [] });
    expect(response.content).toBe('Let me check.');
    expect(response.toolCalls).toEqual([{ id: 'call_x', name: 'get_time', args: {} }]);
  });

  it('reports a missing usage block as no usage (unknown, not zero) rather than failing the answer', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, completionWith({ usage: undefined })));
    const response = await openaiCompatible({ baseURL: server.url }).complete({ model: 'm', messages: [] });
    expect(response.content).toBe('It is 18°C and sunny in Paris.');
    expect('usage' in response).toBe(false);
  });

  it('reads the reasoning tokens a reasoning model reports (inside completion_tokens, also given apart)', async () => {
    const usage = { prompt_tokens: 40, completion_tokens: 250, total_tokens: 290, completion_tokens_details: { reasoning_tokens: 192 } };
    const server = await serve((_req, res) => sendJson(res, 200, completionWith({ usage })));
    const response = await openaiCompatible({ baseURL: server.url }).complete({ model: 'o4-mini', messages: [] });
    expect(response.usage).toEqual({ input: 40, output: 250, reasoning: 192 });
  });

  it('reports a usage block without both counts as no usage (a guessed count would pass for a real one)', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, completionWith({ usage: { prompt_tokens: 12 } })));
    const response = await openaiCompatible({ baseURL: server.url }).complete({ model: 'm', messages: [] });
    expect('usage' in response).toBe(false);
  });

  it('refuses a usage count that is no count as a malformed_response, in the words every provider uses (usage.ts)', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, completionWith({ usage: { prompt_tokens: 12, completion_tokens: -1 } })));
    const error = await failureOf(openaiCompatible({ baseURL: server.url }).complete({ model: 'm', messages: [] }));
    expect(error.kind).toBe('malformed_response');
    expect(error.message).toBe('openai: malformed response: usage.output is a negative number, not a finite number >= 0');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps tool-call arguments that are no JSON object as the call\'s argsText, with empty args: the reply is not malformed', async () => {
    const broken = '{"location": "Paris, France"';
    const server = await serve((_req, res) =>
      sendJson(
        res,
        200,
        completionWith({
          message: {
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: broken } },
              { id: 'call_2', type: 'function', function: { name: 't', arguments: '[1,2]' } },
            ],
          },
          finish_reason: 'length',
        }),
      ),
    );
    const response = await openaiCompatible({ baseURL: server.url }).complete({ model: 'm', messages: [] });
    expect({ toolCalls: response.toolCalls, stopReason: response.stopReason }).toEqual({
      toolCalls: [
        { id: 'call_1', name: 'get_weather', args: {}, argsText: broken },
        { id: 'call_2', name: 't', args: {}, argsText: '[1,2]' },
      ],
      stopReason: 'max_tokens',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('treats a 200 without choices[0].message as malformed_response carrying the body (under content capture)', async () => {
    captureContent();
    const body = { id: 'chatcmpl-1', object: 'chat.completion', choices: [] };
    const server = await serve((_req, res) => sendJson(res, 200, body));
    const error = await failureOf(openaiCompatible({ baseURL: server.url }).complete({ model: 'm', messages: [] }));
    expect(error.kind).toBe('malformed_response');
    expect(error.retryable).toBe(false);
    expect(JSON.parse(error.raw ?? '')).toEqual(body);
  });
});
