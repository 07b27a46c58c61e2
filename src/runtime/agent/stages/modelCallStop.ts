/**
 * ModelCallStop: what bounds the waits of one model call. A provider is a port anyone may implement
 * (providers/types.ts), so the runtime cannot rely on it honouring the signal or ever settling: the
 * call gets its own AbortController (the provider's signal), aborted when the run's signal fires (the
 * call fails as cancelled) or when one wait on the provider runs past the agent's
 * modelCallTimeoutMs (the call fails with ProviderError kind 'timeout', retryable, as an HTTP
 * provider's own deadline does: exchange.ts). Either way the wait in progress ends at once.
 *
 * Only the current wait is held, and one abort listener per call (racing each wait against one abort
 * promise would leave a reaction on it per streamed part). A provider promise that settles after its
 * wait ended is absorbed: its value is dropped and its rejection handled, never unhandled.
 */
import { cancelled, ProviderError } from '../../providers/index.js';

export class ModelCallStop {
  private readonly controller = new AbortController();
  private rejectCurrent?: (error: unknown) => void;
  /** The current wait's deadline timer, cleared when the call stops. */
  private timer?: ReturnType<typeof setTimeout>;
  /** Why the call stopped, once it has. */
  private failure?: ProviderError;
  private readonly onRunAbort = () => this.stop(cancelled(this.provider, this.runSignal?.reason), this.runSignal?.reason);

  constructor(
    private readonly provider: string,
    private readonly timeoutMs: number,
    private readonly runSignal: AbortSignal | undefined,
  ) {
    if (runSignal?.aborted) this.onRunAbort();
    else runSignal?.addEventListener('abort', this.onRunAbort, { once: true });
  }

  /** The signal the provider gets: aborted with the run's, or at the deadline. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * What `start()` gives, or the call's failure the moment it stops (at once, without starting, if it
   * already has). With `deadline` (what the wait is for, for the message: "no answer") the wait is
   * on the provider and bounded by modelCallTimeoutMs; without, it is not (a wait for the run's
   * consumer to make room is the app's pace, not the provider's).
   */
  wait<T>(start: () => PromiseLike<T> | T, deadline?: string): Promise<T> {
    // One promise per wait (and the one its provider's promise derives): this runs per model call,
    // and per part of a streamed one.
    return new Promise<T>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.rejectCurrent = reject;
      const timer = deadline === undefined ? undefined : setTimeout(expire, this.timeoutMs, this, deadline);
      this.timer = timer;
      let started: PromiseLike<T> | T;
      try {
        started = start();
      } catch (error) {
        clearTimeout(timer);
        return reject(error);
      }
      Promise.resolve(started).then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** The current wait ran past modelCallTimeoutMs: the call fails as timed out. */
  timeOut(deadline: string): void {
    const message = `${deadline} within ${this.timeoutMs} ms (modelCallTimeoutMs)`;
    const reason = new DOMException(message, 'TimeoutError');
    this.stop(new ProviderError({ provider: this.provider, kind: 'timeout', message: `${this.provider}: ${message}`, retryable: true, cause: reason }), reason);
  }

  /** Removes the run-signal listener; a finished call leaves nothing behind. */
  dispose(): void {
    this.rejectCurrent = undefined;
    this.runSignal?.removeEventListener('abort', this.onRunAbort);
  }

  /** Fails the call with `failure`; the provider's signal aborts with `reason` (the run's, or a TimeoutError). */
  private stop(failure: ProviderError, reason: unknown): void {
    if (this.failure) return;
    this.failure = failure;
    clearTimeout(this.timer);
    this.rejectCurrent?.(failure);
    this.controller.abort(reason);
  }
}

/** A wait's deadline timer: a module function given its stop, so a wait makes no closure for it. */
function expire(stop: ModelCallStop, deadline: string): void {
  stop.timeOut(deadline);
}
