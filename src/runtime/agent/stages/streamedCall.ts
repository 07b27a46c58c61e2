/**
 * A model call of a streamed run (runner.stream()): the provider's parts are pulled one at a time
 * through streamFrom (a provider with only complete() gives its reply as one chunk), each text or
 * tool-call part is reported as llm_chunk the moment it arrives, and the StreamAssembler builds the
 * same LLMResponse complete() gives, so everything after the call is the same as in run().
 *
 * Pulled, never pushed: before each pull the stage waits until the run's consumer has room
 * (runStream.ts), so a slow reader slows the provider stream down instead of filling a buffer. Each
 * pull, and each wait for room, is cut off when the run's signal fires, even if the provider ignores
 * the signal; a call that ends early returns the provider's iterator so it can release its request.
 * Nothing is retried here: once a chunk was handed out, a failure fails the call.
 */
import { emit, type EventPayloads } from '../../../events/index.js';
import type { StreamSink } from '../../run/index.js';
import {
  cancelled,
  StreamAssembler,
  streamFrom,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  type LLMStreamPart,
} from '../../providers/index.js';
import type { AgentScope } from './scope.js';

/** What llm_end reports of a streamed call; filled in as chunks arrive, so a failed call reports what came. */
export type StreamTotals = NonNullable<EventPayloads['footprint.stream.llm_end']['streamed']>;

export interface StreamedCall {
  provider: LLMProvider;
  request: LLMRequest;
  signal?: AbortSignal;
  sink: StreamSink;
  callId: string;
  agentId: string;
  /** performance.now() when the call started (chunks' atMs count from it). */
  started: number;
  totals: StreamTotals;
}

export async function streamReply(scope: AgentScope, call: StreamedCall): Promise<LLMResponse> {
  const { provider, signal, sink } = call;
  const assembler = new StreamAssembler(provider.name);
  const iterator = streamFrom(provider, call.request, signal ? { signal } : {})[Symbol.asyncIterator]();
  const cutoff = signal && new Cutoff(provider.name, signal);
  let finished = false;
  let lastChunkMs = 0;
  try {
    for (;;) {
      const room = sink.room();
      if (room) await (cutoff ? cutoff.wait(room) : room);
      if (signal?.aborted) throw cancelled(provider.name, signal.reason);
      const step = await (cutoff ? cutoff.wait(iterator.next()) : iterator.next());
      if (step.done) {
        finished = true;
        return assembler.response();
      }
      const part = step.value;
      assembler.add(part);
      if (isChunk(part)) lastChunkMs = report(scope, call, part, lastChunkMs);
    }
  } finally {
    cutoff?.dispose();
    // The provider may still hold the request (an abort, a malformed part): let it go. Not awaited:
    // a provider that ignores return() must not hold the run.
    if (!finished) iterator.return(undefined).catch(() => undefined);
  }
}

/** Counts and times the chunk (after the first: its gap since `lastChunkMs`), reports it to the run's listeners (and its stream); returns its atMs. */
function report(scope: AgentScope, call: StreamedCall, part: ChunkPart, lastChunkMs: number): number {
  const atMs = performance.now() - call.started;
  const index = call.totals.chunks++;
  if (index === 0) call.totals.firstChunkMs = atMs;
  else call.totals.chunkGapsMs.push(atMs - lastChunkMs);
  emit(scope, 'footprint.stream.llm_chunk', { callId: call.callId, agentId: call.agentId, index, atMs, part });
  return atMs;
}

type ChunkPart = Extract<LLMStreamPart, { type: 'text' | 'tool_call' }>;

/** Text and tool-call parts are chunks (an empty text delta carries nothing: not one); usage and finish are not. */
function isChunk(part: LLMStreamPart): part is ChunkPart {
  return part.type === 'tool_call' || (part.type === 'text' && part.delta !== '');
}

/**
 * Cuts off what the call waits for when the run's signal fires: one abort listener per call, and
 * only the current wait is held (racing each wait against one abort promise would leave a reaction
 * on it per chunk, growing with the reply).
 */
class Cutoff {
  private rejectCurrent?: (error: unknown) => void;
  private readonly onAbort = () => this.rejectCurrent?.(cancelled(this.provider, this.signal.reason));

  constructor(
    private readonly provider: string,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** `pending`, or a rejection once the signal fires (at once if it already has). */
  wait<T>(pending: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.rejectCurrent = reject;
      pending.then(resolve, reject);
      if (this.signal.aborted) this.onAbort();
    });
  }

  dispose(): void {
    this.rejectCurrent = undefined;
    this.signal.removeEventListener('abort', this.onAbort);
  }
}
