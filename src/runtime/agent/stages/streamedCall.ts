/**
 * A model call of a streamed run (runner.stream()): the provider's parts are pulled one at a time
 * through streamFrom (a provider with only complete() gives its reply as one chunk), each text or
 * tool-call part is reported as llm_chunk the moment it arrives, and the StreamAssembler builds the
 * same LLMResponse complete() gives, so everything after the call is the same as in run().
 *
 * Pulled, never pushed: before each pull the stage waits until the run's consumer has room
 * (runStream.ts), so a slow reader slows the provider stream down instead of filling a buffer. Each
 * pull, and each wait for room, is cut off when the run's signal fires, even if the provider ignores
 * the signal (modelCallStop.ts); each pull alone also has the agent's modelCallTimeoutMs, so a stream
 * that stalls fails as a timeout however long it ran before. A call that ends early returns the
 * provider's iterator so it can release its request.
 * Nothing is retried here: once a chunk was handed out, a failure fails the call.
 */
import { emit, type EventPayloads } from '../../../events/index.js';
import type { StreamSink } from '../../run/index.js';
import {
  StreamAssembler,
  streamFrom,
  type LLMProvider,
  type LLMRequest,
  type LLMResponse,
  type LLMStreamPart,
} from '../../providers/index.js';
import type { ModelCallStop } from './modelCallStop.js';
import type { StageScope } from './scope.js';

/** What llm_end reports of a streamed call; filled in as chunks arrive, so a failed call reports what came. */
export type StreamTotals = NonNullable<EventPayloads['footprint.call.llm_end']['streamed']>;

export interface StreamedCall {
  provider: LLMProvider;
  request: LLMRequest;
  /** The call's signal and the bound on each of its waits. */
  stop: ModelCallStop;
  sink: StreamSink;
  callId: string;
  agentId: string;
  /** performance.now() when the call started (chunks' atMs count from it). */
  started: number;
  totals: StreamTotals;
}

export async function streamReply(scope: StageScope, call: StreamedCall): Promise<LLMResponse> {
  const { provider, stop, sink } = call;
  const assembler = new StreamAssembler(provider.name);
  const iterator = streamFrom(provider, call.request, { signal: stop.signal })[Symbol.asyncIterator]();
  let finished = false;
  let lastChunkMs = 0;
  let parts = 0;
  try {
    for (;;) {
      const room = sink.room();
      if (room) await stop.wait(() => room);
      const step = await stop.wait(() => iterator.next(), parts++ === 0 ? 'no stream part' : 'the stream stalled: no next part');
      if (step.done) {
        finished = true;
        return assembler.response();
      }
      const part = step.value;
      assembler.add(part);
      if (isChunk(part)) lastChunkMs = report(scope, call, part, lastChunkMs);
    }
  } finally {
    // The provider may still hold the request (an abort, a malformed part): let it go. Not awaited:
    // a provider that ignores return() must not hold the run.
    if (!finished) iterator.return(undefined).catch(() => undefined);
  }
}

/** Counts and times the chunk (after the first: its gap since `lastChunkMs`), reports it to the run's listeners (and its stream); returns its atMs. */
function report(scope: StageScope, call: StreamedCall, part: ChunkPart, lastChunkMs: number): number {
  const atMs = performance.now() - call.started;
  const index = call.totals.chunks++;
  if (index === 0) call.totals.firstChunkMs = atMs;
  else call.totals.chunkGapsMs.push(atMs - lastChunkMs);
  emit(scope, 'footprint.call.llm_chunk', { callId: call.callId, agentId: call.agentId, index, atMs, part });
  return atMs;
}

type ChunkPart = Extract<LLMStreamPart, { type: 'text' | 'tool_call' }>;

/** Text and tool-call parts are chunks (an empty text delta carries nothing: not one); usage and finish are not. */
function isChunk(part: LLMStreamPart): part is ChunkPart {
  return part.type === 'tool_call' || (part.type === 'text' && part.delta !== '');
}
