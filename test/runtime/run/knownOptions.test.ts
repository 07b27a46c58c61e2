/**
 * An option name the API does not have is a ConfigError naming it (and the option it most resembles),
 * where JavaScript, or an options object built elsewhere, gets past TypeScript's excess-property
 * check: a misspelt `maxIteration` or `baseUrl` used to leave the setting at its default in silence
 * (a gemini() `baseUrl` sent the requests to Google's own endpoint instead of the proxy meant).
 */
import { describe, expect, it } from 'vitest';
import { Agent, anthropic, ConfigError, gemini, isPaused, LLMCall, openaiCompatible, openaiResponses, scripted, type LLMProvider } from '../../../src/index.js';

const provider = scripted({ replies: [{ content: 'fine' }] });

/** The ConfigError `make` throws, as message and field. */
function refusal(make: () => unknown): { message: string; field?: string } {
  try {
    make();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { message: error.message, field: error.field };
  }
  throw new Error('expected a ConfigError');
}

/** Options as a JavaScript caller (or an object built elsewhere) passes them: unchecked by TypeScript. */
const loose = <T>(options: Record<string, unknown>) => options as T;

describe('unknown options', () => {
  it('Agent.create and LLMCall.create name the option, and the one it resembles', () => {
    expect(refusal(() => Agent.create(loose({ provider, model: 'm', id: 'desk', maxIteration: 3 })))).toEqual({
      message: 'agent "desk": unknown option "maxIteration" (did you mean "maxIterations"?)',
      field: 'maxIteration',
    });
    expect(refusal(() => LLMCall.create(loose({ provider, model: 'm', systemPrompt: 'Be brief.' })))).toEqual({
      message: 'llm_call "llm-call": unknown option "systemPrompt"',
      field: 'systemPrompt',
    });
  });

  it('run(), stream() and resume() refuse an option they do not take, before anything runs', async () => {
    const agent = Agent.create({ provider, model: 'm', id: 'desk' }).build();
    await expect(agent.run('hi', loose({ sessionId: 's-1' }))).rejects.toMatchObject({ name: 'ConfigError', message: 'agent "desk": run(): unknown option "sessionId"', field: 'sessionId' });
    await expect(agent.stream('hi', loose({ conversationID: 't-1' })).result).rejects.toMatchObject({
      name: 'ConfigError',
      message: 'agent "desk": stream(): unknown option "conversationID" (did you mean "conversationId"?)',
    });
    // resume() takes checkpointStore as well; run() does not.
    await expect(agent.run('hi', loose({ checkpointStore: undefined }))).rejects.toMatchObject({ message: 'agent "desk": run(): unknown option "checkpointStore"' });
  });

  it('resume() takes checkpointStore', async () => {
    const pausing = Agent.create({ provider: scripted({ replies: [{ toolCalls: [{ name: 'ask', args: {} }] }, { content: 'done' }] }), model: 'm', id: 'desk' })
      .tool({ name: 'ask', description: 'Ask a human', inputSchema: { type: 'object' }, execute: (_args: unknown, ctx) => ctx.pause('ok?') })
      .build();
    const paused = await pausing.run('go');
    if (!isPaused(paused)) throw new Error('expected a pause');
    await expect(pausing.resume(paused.paused.checkpoint, 'yes', loose({ checkpointstore: undefined }))).rejects.toMatchObject({
      message: 'agent "desk": resume(): unknown option "checkpointstore" (did you mean "checkpointStore"?)',
    });
    expect((await pausing.resume(paused.paused.checkpoint, 'yes', { checkpointStore: undefined })).text).toBe('done');
  });

  it('every HTTP provider names the option; openaiCompatible() without options says what it needs', () => {
    const made: [() => LLMProvider, string][] = [
      [() => gemini(loose({ baseUrl: 'http://127.0.0.1:1' })), 'gemini: unknown option "baseUrl" (did you mean "baseURL"?)'],
      [() => anthropic(loose({ apiKey: 'k', max_tokens: 100 })), 'anthropic: unknown option "max_tokens" (did you mean "maxTokens"?)'],
      [() => openaiResponses(loose({ store: true })), 'openaiResponses: unknown option "store"'],
      [() => openaiCompatible(loose({ baseURL: 'http://127.0.0.1:1/v1', apikey: 'k' })), 'openaiCompatible: unknown option "apikey" (did you mean "apiKey"?)'],
      [() => openaiCompatible(undefined as never), 'openaiCompatible needs options: { baseURL }'],
      // JavaScript gets null past a default of {}.
      [() => anthropic(null as never), 'anthropic: the options must be an object'],
      [() => gemini(null as never), 'gemini: the options must be an object'],
      [() => openaiResponses(null as never), 'openaiResponses: the options must be an object'],
    ];
    expect(made.map(([make]) => refusal(make).message)).toEqual(made.map(([, message]) => message));
    // Every option the types name is taken.
    expect(
      gemini({ apiKey: 'k', baseURL: 'http://127.0.0.1:1', headers: {}, timeoutMs: 1000, maxRetries: 0, retryBaseMs: 1, maxResponseBytes: 1024, fetch, captureContent: false }).name,
    ).toBe('gemini');
  });
});
