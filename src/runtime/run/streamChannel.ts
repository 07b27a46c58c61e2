/**
 * The bounded hand-over between a streamed run and its one consumer. The run pushes parts as its
 * events happen (push never blocks: events are synchronous); the model-call stage asks for `room()`
 * before it pulls the next chunk from the provider, and waits while the consumer is `capacity` parts
 * behind. So a slow consumer slows the provider stream down instead of growing a buffer: at most
 * `capacity` chunks wait, plus the few structural parts (tool calls, hand-offs) a run raises between
 * two chunks. Once the consumer is gone (`close()`), parts are dropped and no one waits for room.
 */
export class StreamChannel<T> {
  private readonly queue: T[] = [];
  /** next() calls waiting for an item, in call order. */
  private readonly readers: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void }[] = [];
  private readonly roomWaiters: (() => void)[] = [];
  /** Set when the producer is done: nothing more will be pushed; `error` is thrown after the queue. */
  private ending?: { error?: unknown; thrown: boolean };
  private closed = false;

  constructor(readonly capacity: number) {}

  push(item: T): void {
    if (this.closed || this.ending) return;
    const reader = this.readers.shift();
    if (reader) {
      reader.resolve({ value: item, done: false });
      return;
    }
    this.queue.push(item);
  }

  /** undefined when there is room now; otherwise a promise that settles once there is (or the consumer left). */
  room(): Promise<void> | undefined {
    if (this.closed || this.queue.length < this.capacity) return undefined;
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** The producer ended: the last item (if any) is queued behind the others, then the iteration ends (or throws `error`). */
  end(last?: T, error?: unknown): void {
    if (this.closed || this.ending) return;
    if (last !== undefined) this.push(last);
    this.ending = error === undefined ? { thrown: true } : { error, thrown: false };
    this.settleReaders();
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.queue.shift();
    if (item !== undefined) {
      this.releaseRoom();
      return Promise.resolve({ value: item, done: false });
    }
    if (this.closed || this.ending) return this.finished();
    return new Promise((resolve, reject) => this.readers.push({ resolve, reject }));
  }

  /** The consumer is gone: queued items are dropped, waiting producers go on (and find the run cancelled). */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.releaseRoom();
    this.settleReaders();
  }

  /** Waiting readers once nothing more will come (the queue is empty whenever a reader waits). */
  private settleReaders(): void {
    for (const reader of this.readers.splice(0)) this.finished().then(reader.resolve, reader.reject);
  }

  private finished(): Promise<IteratorResult<T>> {
    const ending = this.ending;
    if (ending && !ending.thrown && !this.closed) {
      ending.thrown = true;
      return Promise.reject(ending.error);
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  private releaseRoom(): void {
    if (this.roomWaiters.length === 0 || (!this.closed && this.queue.length >= this.capacity)) return;
    for (const wake of this.roomWaiters.splice(0)) wake();
  }
}
