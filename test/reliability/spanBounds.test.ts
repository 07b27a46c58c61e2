/**
 * Text a model endpoint or a provider makes up never makes a span unbounded. Through the real
 * openaiCompatible provider and a 127.0.0.1 server: a response whose id, model, finish_reason, tool
 * call id and tool name are each 100,000 chars still gives a trace whose span names and attributes
 * stay within the documented caps; and a provider that throws an Error with a 10 MB message fails
 * the run with spans whose exception events stay bounded (the checker's exception ceiling).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, openaiCompatible, RunFailedError, type LLMProvider } from '../../src/index.js';
import { sendJson, startWireServer, type WireServer } from '../runtime/providers/wireServer.js';
import { outcomeOf } from '../support/reliability/runs.js';
import { startSdk } from '../support/sdk.js';
import { ATTRIBUTE_CAP, traceProblems } from '../support/traceChecks.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());
let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const LONG = 100_000;
const long = (unit: string) => unit.repeat(LONG);

function longSpanNames(): string[] {
  return sdk
    .spans()
    .filter((s) => s.name.length > ATTRIBUTE_CAP)
    .map((s) => `${s.name.slice(0, 30)}… (${s.name.length} chars)`);
}

describe('identifiers a model endpoint answers with', () => {
  it('a 100,000-char response id, model, finish reason, tool call id and tool name stay within the caps', async () => {
    server = await startWireServer((_request, res, index) =>
      sendJson(
        res,
        200,
        index === 0
          ? {
              id: long('i'),
              model: long('m'),
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: null, tool_calls: [{ id: long('c'), type: 'function', function: { name: long('t'), arguments: '{}' } }] },
                  finish_reason: long('f'),
                },
              ],
              usage: { prompt_tokens: 5, completion_tokens: 5 },
            }
          : { id: 'ok', model: 'gpt-test', choices: [{ index: 0, message: { role: 'assistant', content: 'done' }, finish_reason: 'stop' }] },
      ),
    );
    const agent = Agent.create({ provider: openaiCompatible({ baseURL: server.url }), model: 'gpt-test', id: 'wire', name: 'Wire' })
      .tool({ name: 'lookup', description: 'Finds things', inputSchema: { type: 'object' }, execute: () => 'found' })
      .build();
    expect((await agent.run('hello')).text).toBe('done');
    expect(traceProblems(sdk.spans(), { unended: sdk.unended(), traces: 1 })).toEqual([]);
    expect(longSpanNames()).toEqual([]);
  });
});

describe('a provider error with a 10 MB message', () => {
  it('fails the run, typed, with every exception event bounded', async () => {
    const provider: LLMProvider = {
      name: 'openai',
      complete: async () => {
        throw new Error('x'.repeat(10_000_000));
      },
    };
    const agent = Agent.create({ provider, model: 'gpt-test', id: 'wire', name: 'Wire' }).build();
    const result = await outcomeOf(agent.run('hello'));
    expect((result as { error: unknown }).error).toBeInstanceOf(RunFailedError);
    expect(traceProblems(sdk.spans(), { unended: sdk.unended(), traces: 1 })).toEqual([]);
  });
});
