/**
 * At most `limit` tool calls of one reply run at once (AgentOptions.toolConcurrency); the others wait
 * in the order the model asked for them. A model that asks for hundreds of calls in one reply then
 * loads the tools, the process and the telemetry pipeline `limit` calls at a time, not all at once.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Runs `work` once a slot is free; when it settles, its slot passes to the next waiting call. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
