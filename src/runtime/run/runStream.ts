/**
 * RunStream: what `runner.stream()` returns. The run starts at once, in the caller's context (so its
 * trace parents where run()'s would); its parts go through a bounded channel (streamChannel.ts) that
 * the consumer pulls with for-await. `result` settles when the run does, as run() would: the answer or
 * a Paused checkpoint, or RunFailedError / RunCancelledError.
 *
 * Ending early: breaking out of for-await, calling `return()`, or aborting the caller's signal
 * cancels the run (the model request is aborted and its provider stream returned), and `return()`
 * resolves once the run has settled, so every span has ended by then. A consumer that never reads
 * holds the run at the channel's capacity until it reads, returns or aborts.
 */
import type { TypedEvent } from '../../events/index.js';
import type { RunResult } from './result.js';
import { StreamChannel } from './streamChannel.js';
import { StreamParts, type RunStreamPart } from './streamParts.js';

/** Parts a streamed run may hold for a consumer that has not read them before its model calls wait. */
export const STREAM_CAPACITY = 16;

/** What the run's hub hands a streamed run's events to, and asks before pulling another chunk. */
export interface StreamSink {
  onEvent(event: TypedEvent): void;
  /** undefined when the consumer has room for another chunk; otherwise settles once it has. */
  room(): Promise<void> | undefined;
}

/** The reason a stream's run is cancelled with when its consumer ends the iteration. */
export class StreamClosedError extends Error {
  override readonly name = 'StreamClosedError';
  constructor() {
    super('the consumer ended the stream before the run finished');
  }
}

export class RunStream<Output = unknown> implements AsyncIterableIterator<RunStreamPart<Output>> {
  /** The run's result: the answer or a Paused checkpoint; rejects as run() throws. */
  readonly result: Promise<RunResult<Output>>;
  // Parts as the run makes them, typed per runner only at next(): a field of RunStreamPart<Output> would
  // make Output invariant (the channel's readers take parts), and an Agent<Output> could not be the
  // Runner<unknown> a composition takes as a member. The end part's result is `result`, checked as it is.
  private readonly channel = new StreamChannel<RunStreamPart>(STREAM_CAPACITY);
  private readonly controller = new AbortController();
  private settled = false;

  /** @internal Runner.stream() and resumeStream() start a run through here. */
  constructor(callerSignal: AbortSignal | undefined, run: (signal: AbortSignal, sink: StreamSink) => Promise<RunResult>) {
    const parts = new StreamParts((part) => this.channel.push(part));
    const sink: StreamSink = { onEvent: (event) => parts.onEvent(event), room: () => this.channel.room() };
    const follow = () => this.controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) follow();
    else callerSignal?.addEventListener('abort', follow, { once: true });
    // Output is the runner's structured-output type (Agent<Output>): the run checked the value against that schema.
    this.result = (run(this.controller.signal, sink) as Promise<RunResult<Output>>).finally(() => {
      this.settled = true;
      callerSignal?.removeEventListener('abort', follow);
    });
    this.result.then(
      (result) => this.channel.end({ type: 'end', result }),
      (error: unknown) => this.channel.end(undefined, error),
    );
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<RunStreamPart<Output>>> {
    return this.channel.next() as Promise<IteratorResult<RunStreamPart<Output>>>;
  }

  /** Ends the iteration; cancels the run if it is still going, and resolves once it has settled. */
  async return(): Promise<IteratorResult<RunStreamPart<Output>>> {
    this.channel.close();
    if (!this.settled) this.controller.abort(new StreamClosedError());
    await this.result.then(ignore, ignore);
    return { value: undefined, done: true };
  }
}

function ignore(): void {}
