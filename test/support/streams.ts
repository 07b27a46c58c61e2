/**
 * Helpers for streamed runs: draining a RunStream, reading its text, and a provider wrapper that
 * records how the runtime pulled and ended its stream (so a test can prove the request was released).
 */
import { expect } from 'vitest';
import type { LLMProvider, LLMRequest, LLMStreamPart, Runner, RunStream, RunStreamPart, StreamOptions } from '../../src/index.js';

/** Every part of the stream, in order (rejects as the iteration does). */
export async function drain(stream: RunStream): Promise<RunStreamPart[]> {
  const parts: RunStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** The text parts' deltas, joined. */
export function textOf(parts: readonly RunStreamPart[]): string {
  return parts.map((p) => (p.type === 'text' ? p.delta : '')).join('');
}

/** A text part as a test expects it (callId varies per run). */
export function text(delta: string, member: { kind: 'agent' | 'llm_call' | 'router'; id: string }, route = '', agentId = member.id) {
  return { type: 'text', delta, callId: expect.stringMatching(/^call_[0-9a-z]+$/), member, agentId, route };
}

export interface StreamLog {
  /** Parts the runtime pulled from the provider, over every call. */
  pulled: number;
  /** How each call's stream ended: 'done' (finished), 'returned' (the runtime let it go), 'threw'. */
  endings: string[];
  /** Whether each call's signal had fired when its stream ended. */
  abortedAtEnd: boolean[];
}

/** `provider` with a stream() that records what the runtime did with it (see StreamLog). */
export function observed(provider: LLMProvider): { provider: LLMProvider; log: StreamLog } {
  const log: StreamLog = { pulled: 0, endings: [], abortedAtEnd: [] };
  const inner = provider.stream!.bind(provider);
  async function* stream(request: LLMRequest, options?: StreamOptions): AsyncGenerator<LLMStreamPart> {
    let ending = 'returned';
    try {
      for await (const part of inner(request, options)) {
        log.pulled++;
        yield part;
      }
      ending = 'done';
    } catch (error) {
      ending = 'threw';
      throw error;
    } finally {
      log.endings.push(ending);
      log.abortedAtEnd.push(options?.signal?.aborted === true);
    }
  }
  return { provider: { name: provider.name, complete: provider.complete.bind(provider), stream }, log };
}

/** Resolves once `runner`'s listeners have heard `count` model chunks (from now on). */
export function chunksHeard(runner: Runner, count: number): Promise<void> {
  return new Promise((resolve) => {
    let heard = 0;
    const stop = runner.on('footprint.call.llm_chunk', () => {
      if (++heard < count) return;
      stop();
      resolve();
    });
  });
}

/** Resolves after `ms` of real time (to show that nothing more happens while a consumer waits). */
export function settle(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
