/**
 * toolChoice and reasoningEffort as Agent and LLMCall options: sent with every model call the agent
 * makes (the provider's request carries them), and a value no provider knows refused at build time
 * with a ConfigError naming the field.
 */
import { describe, expect, it } from 'vitest';
import { Agent, ConfigError, LLMCall, scripted } from '../../../src/index.js';

const lookup = {
  name: 'lookup',
  description: 'Look it up',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  execute: () => 'found',
};

function refusal(build: () => unknown): { message: string; field?: string } {
  try {
    build();
  } catch (error) {
    if (error instanceof ConfigError) return { message: error.message, field: error.field };
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('toolChoice and reasoningEffort options', () => {
  it('an Agent sends both with every model call', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'lookup', args: { id: '1' } }] }, 'done'] });
    const agent = Agent.create({ provider, model: 'm', toolChoice: { name: 'lookup' }, reasoningEffort: 'minimal' }).tool(lookup).build();
    expect((await agent.run('go')).text).toBe('done');
    expect(provider.calls.map((call) => [call.toolChoice, call.reasoningEffort])).toEqual([
      [{ name: 'lookup' }, 'minimal'],
      [{ name: 'lookup' }, 'minimal'],
    ]);
  });

  it('an LLMCall sends both', async () => {
    const provider = scripted({ replies: ['ok'] });
    const call = LLMCall.create({ provider, model: 'm', toolChoice: 'none', reasoningEffort: 'high' }).build();
    expect((await call.run('go')).text).toBe('ok');
    expect([provider.calls[0]!.toolChoice, provider.calls[0]!.reasoningEffort]).toEqual(['none', 'high']);
  });

  it('unset, neither is sent', async () => {
    const provider = scripted({ replies: ['ok'] });
    await Agent.create({ provider, model: 'm' }).build().run('go');
    expect([provider.calls[0]!.toolChoice, provider.calls[0]!.reasoningEffort]).toEqual([undefined, undefined]);
  });

  it.each([
    [{ toolChoice: 'any' }, { message: `agent "agent": toolChoice must be 'auto', 'none', 'required' or { name } of a tool`, field: 'toolChoice' }],
    [{ toolChoice: { name: '' } }, { message: `agent "agent": toolChoice must be 'auto', 'none', 'required' or { name } of a tool`, field: 'toolChoice' }],
    [{ reasoningEffort: 'max' }, { message: `agent "agent": reasoningEffort must be 'minimal', 'low', 'medium' or 'high'`, field: 'reasoningEffort' }],
  ])('%j is refused when the agent is built', (options, expected) => {
    const provider = scripted({ replies: ['ok'] });
    expect(refusal(() => Agent.create({ provider, model: 'm', ...(options as object) }).build())).toEqual(expected);
  });
});
