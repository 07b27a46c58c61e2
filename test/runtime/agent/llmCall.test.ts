import { describe, expect, it } from 'vitest';
import { LLMCall, scripted } from '../../../src/index.js';
import { collect } from '../../fixtures/collect.js';

describe('LLMCall', () => {
  it('makes exactly one model call with the system prompt and reports it like any call', async () => {
    const provider = scripted({ replies: [{ content: 'short summary', usage: { input: 1000, output: 50 } }] });
    const summarize = LLMCall.create({ provider, model: 'claude-haiku-4-5', id: 'summarize' }).system('Summarize.').build();
    const seen = collect(summarize);
    expect((await summarize.run('a very long text')).text).toBe('short summary');
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]).toMatchObject({ model: 'claude-haiku-4-5', systemPrompt: 'Summarize.', tools: undefined });
    expect(seen.of('footprint.call.llm_start')).toHaveLength(1);
    const call = seen.of('footprint.call.llm_end')[0]!;
    // claude-haiku-4-5: $1 in / $5 out per million
    expect(call.cost.usd).toBeCloseTo((1000 * 1 + 50 * 5) / 1e6, 12);
    expect(seen.events.every((e) => e.meta.member.kind === 'llm_call' && e.meta.member.id === 'summarize')).toBe(true);
  });

  it('answers with the model text even when the model asks for tools (it has none)', async () => {
    const provider = scripted({ replies: [{ content: 'partial', toolCalls: [{ name: 'x' }] }] });
    const call = LLMCall.create({ provider, model: 'm' }).build();
    expect((await call.run('q')).text).toBe('partial');
    expect(provider.calls).toHaveLength(1);
  });
});
