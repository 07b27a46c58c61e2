/**
 * A model call's AbortSignal is made when its provider reads it (agent/stages/modelCallStop.ts): a
 * provider that reads it only after the call stopped still gets it aborted, with the run's reason or
 * the deadline's TimeoutError; the scripted provider reads it only when it has a wait to cut short.
 */
import { describe, expect, it } from 'vitest';
import { Agent, RunCancelledError, RunFailedError, scripted, type CompleteOptions, type LLMProvider, type LLMResponse } from '../../../src/index.js';

/** A provider that waits `ms`, then reads its signal (and keeps what it saw), then answers. */
function readsSignalLate(ms: number): LLMProvider & { seen: { aborted: boolean; reason: unknown }[] } {
  const seen: { aborted: boolean; reason: unknown }[] = [];
  return {
    name: 'late-reader',
    seen,
    async complete(_request, options): Promise<LLMResponse> {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const signal = options!.signal!;
      seen.push({ aborted: signal.aborted, reason: signal.reason });
      return { content: 'late', toolCalls: [], stopReason: 'end_turn' };
    },
  };
}

describe('a model call’s signal, read on demand', () => {
  it('is aborted with the run’s reason when the provider reads it after the run was cancelled', async () => {
    const provider = readsSignalLate(40);
    const agent = Agent.create({ provider, model: 'm', id: 'a' }).build();
    const controller = new AbortController();
    const reason = new Error('user left');
    setTimeout(() => controller.abort(reason), 5);
    await expect(agent.run('q', { signal: controller.signal })).rejects.toBeInstanceOf(RunCancelledError);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(provider.seen).toEqual([{ aborted: true, reason }]);
  });

  it('is aborted with the deadline’s TimeoutError when the provider reads it after modelCallTimeoutMs', async () => {
    const provider = readsSignalLate(40);
    const agent = Agent.create({ provider, model: 'm', id: 'a', modelCallTimeoutMs: 5 }).build();
    await expect(agent.run('q')).rejects.toBeInstanceOf(RunFailedError);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(provider.seen).toHaveLength(1);
    expect(provider.seen[0]!.aborted).toBe(true);
    expect(provider.seen[0]!.reason).toBeInstanceOf(DOMException);
    expect((provider.seen[0]!.reason as DOMException).name).toBe('TimeoutError');
    expect((provider.seen[0]!.reason as DOMException).message).toBe('no answer within 5 ms (modelCallTimeoutMs)');
  });

  it('is not aborted when the provider reads it during a call that goes on', async () => {
    const provider = readsSignalLate(1);
    const agent = Agent.create({ provider, model: 'm', id: 'a' }).build();
    expect((await agent.run('q')).text).toBe('late');
    expect(provider.seen).toEqual([{ aborted: false, reason: undefined }]);
  });
});

describe('the scripted provider’s reads of its signal', () => {
  /** Options whose signal counts its reads. */
  function counted(signal: AbortSignal): CompleteOptions & { reads: number } {
    return {
      reads: 0,
      get signal() {
        this.reads++;
        return signal;
      },
    };
  }

  it('answers a reply without delay without reading the signal', async () => {
    const options = counted(new AbortController().signal);
    expect((await scripted({ replies: ['now'] }).complete({ model: 'm', messages: [] }, options)).content).toBe('now');
    expect(options.reads).toBe(0);
  });

  it('reads it for a reply with a delay, and a cancelled signal cuts the wait short', async () => {
    const controller = new AbortController();
    controller.abort();
    const options = counted(controller.signal);
    await expect(scripted({ replies: [{ content: 'later', delayMs: 50 }] }).complete({ model: 'm', messages: [] }, options)).rejects.toMatchObject({
      kind: 'aborted',
      message: 'model request cancelled',
    });
    expect(options.reads).toBe(1);
  });
});
