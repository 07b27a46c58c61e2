/**
 * The request controls (toolChoice, reasoningEffort, responseFormat) and image parts, as each HTTP
 * provider writes them on its wire (seen by a real 127.0.0.1 server), and refused with a ConfigError
 * naming the provider and the field where its API has no such thing; scripted takes them all.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, scripted, type LLMMessage, type LLMRequest } from '../../../src/runtime/index.js';
import { wireServerPerTest } from './perTest.js';
import { targets } from './targets.js';
import { sendJson } from './wireServer.js';

const serve = wireServerPerTest();

const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const TOOLS = [{ name: 'lookup', description: 'Look it up', inputSchema: SCHEMA }];
const BASE: LLMRequest = { model: 'test-model', messages: [{ role: 'user', content: 'ping' }], tools: TOOLS };
const IMAGE_MESSAGE: LLMMessage = {
  role: 'user',
  content: [
    { type: 'text', text: 'What is in these?' },
    { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
    { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
  ],
};

type Wire = Record<string, unknown>;
/** What each provider's body holds (or the ConfigError message) for one control. */
interface Expected {
  toolChoice: Record<'auto' | 'none' | 'required' | 'one', Wire>;
  reasoningEffort: Wire | string;
  responseFormat: Wire;
  images: Wire;
}

const EXPECTED: Record<string, Expected> = {
  openaiCompatible: {
    toolChoice: {
      auto: { tool_choice: 'auto' },
      none: { tool_choice: 'none' },
      required: { tool_choice: 'required' },
      one: { tool_choice: { type: 'function', function: { name: 'lookup' } } },
    },
    reasoningEffort: { reasoning_effort: 'high' },
    responseFormat: { response_format: { type: 'json_schema', json_schema: { name: 'city', schema: SCHEMA, strict: true } } },
    images: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    },
  },
  openaiResponses: {
    toolChoice: {
      auto: { tool_choice: 'auto' },
      none: { tool_choice: 'none' },
      required: { tool_choice: 'required' },
      one: { tool_choice: { type: 'function', name: 'lookup' } },
    },
    reasoningEffort: { reasoning: { effort: 'high' } },
    responseFormat: { text: { format: { type: 'json_schema', name: 'city', schema: SCHEMA, strict: true } } },
    images: {
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in these?' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
            { type: 'input_image', image_url: 'https://example.com/cat.jpg' },
          ],
        },
      ],
    },
  },
  anthropic: {
    toolChoice: {
      auto: { tool_choice: { type: 'auto' } },
      none: { tool_choice: { type: 'none' } },
      required: { tool_choice: { type: 'any' } },
      one: { tool_choice: { type: 'tool', name: 'lookup' } },
    },
    reasoningEffort: 'anthropic: reasoningEffort is not supported (the Messages API has a thinking token budget, not an effort level)',
    responseFormat: {
      tools: [
        { name: 'lookup', description: 'Look it up', input_schema: SCHEMA },
        { name: 'city', description: 'Answer with the city object.', input_schema: SCHEMA },
      ],
      tool_choice: { type: 'tool', name: 'city' },
    },
    images: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    },
  },
  gemini: {
    toolChoice: {
      auto: { toolConfig: { functionCallingConfig: { mode: 'AUTO' } } },
      none: { toolConfig: { functionCallingConfig: { mode: 'NONE' } } },
      required: { toolConfig: { functionCallingConfig: { mode: 'ANY' } } },
      one: { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } } },
    },
    reasoningEffort: { generationConfig: { thinkingConfig: { thinkingLevel: 'high' } } },
    responseFormat: { generationConfig: { responseMimeType: 'application/json', responseJsonSchema: SCHEMA } },
    images: {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is in these?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    },
  },
};

describe.each(targets)('$label request controls and image parts', (target) => {
  const expected = EXPECTED[target.label]!;
  const name = target.make('http://x', {}).name;

  /** The body the provider sent for `request` (complete() and stream() send the same, bar `stream`). */
  async function sent(request: LLMRequest): Promise<Wire> {
    const server = await serve((_req, res) => sendJson(res, 200, target.ok));
    await target.make(server.url, {}).complete(request);
    return server.requests[0]!.json as Wire;
  }

  it.each(['auto', 'none', 'required', 'one'] as const)('toolChoice %s', async (choice) => {
    const body = await sent({ ...BASE, toolChoice: choice === 'one' ? { name: 'lookup' } : choice });
    expect(body).toMatchObject(expected.toolChoice[choice]);
  });

  it('toolChoice naming a tool the request does not have: a ConfigError naming the provider and field, nothing sent', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, target.ok));
    const error = await target.make(server.url, {}).complete({ ...BASE, toolChoice: { name: 'missing' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect({ message: (error as ConfigError).message, field: (error as ConfigError).field }).toEqual({
      message: `${name}: toolChoice names "missing", which is not one of the request's tools`,
      field: 'toolChoice',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('reasoningEffort', async () => {
    if (typeof expected.reasoningEffort === 'string') {
      const error = await sent({ ...BASE, reasoningEffort: 'high' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect({ message: (error as ConfigError).message, field: (error as ConfigError).field }).toEqual({ message: expected.reasoningEffort, field: 'reasoningEffort' });
      return;
    }
    expect(await sent({ ...BASE, reasoningEffort: 'high' })).toMatchObject(expected.reasoningEffort);
  });

  it('responseFormat', async () => {
    expect(await sent({ ...BASE, responseFormat: { name: 'city', schema: SCHEMA, strict: true } })).toMatchObject(expected.responseFormat);
  });

  it('image parts: base64 data and a URL', async () => {
    expect(await sent({ model: 'test-model', messages: [IMAGE_MESSAGE] })).toMatchObject(expected.images);
  });

  it.each([
    [{ type: 'image', mediaType: 'image/png' }, 'an image part needs exactly one of data or url'],
    [{ type: 'image', mediaType: 'image/png', data: 'AAAA', url: 'https://example.com/a.png' }, 'an image part needs exactly one of data or url'],
    [{ type: 'image', mediaType: '', data: 'AAAA' }, 'an image part needs its mediaType'],
  ])('a bad image part %j: a ConfigError', async (part, why) => {
    const error = await sent({ model: 'test-model', messages: [{ role: 'user', content: [part as never] }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(`${name}: ${why}`);
  });

  it('an image in an assistant message is refused', async () => {
    const messages: LLMMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }] },
    ];
    const error = await sent({ model: 'test-model', messages }).catch((e: unknown) => e);
    expect((error as ConfigError).message).toBe(`${name}: an image part is only sent in a user message, not in assistant messages`);
  });
});

describe('scripted takes every control and image part, and records them', () => {
  it('the request it was given, controls included', async () => {
    const provider = scripted({ replies: ['ok'] });
    const request: LLMRequest = { ...BASE, messages: [IMAGE_MESSAGE], toolChoice: { name: 'lookup' }, reasoningEffort: 'low', responseFormat: { name: 'city', schema: SCHEMA } };
    expect((await provider.complete(request)).content).toBe('ok');
    expect(provider.calls).toEqual([request]);
  });
});
