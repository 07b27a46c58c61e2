/**
 * The stop's time budget, counted from the moment the demo learns of the stop: runs in flight get
 * IN_FLIGHT_GRACE_MS, and the flush what is left of IN_FLIGHT_GRACE_MS + EXIT_FLUSH_BOUND_MS (never
 * more than EXIT_FLUSH_BOUND_MS). Cancelled runs take time to wind down on a loaded machine, and a
 * flush that always got its full bound after them would end the process past the documented 5 s +
 * 5 s; past the deadline the report also skips reading the trace files back for a waterfall. Without
 * a stop the flush gets EXIT_FLUSH_BOUND_MS.
 */

/** How long runs in flight may go on after a stop before they are cancelled. */
export const IN_FLIGHT_GRACE_MS = 5_000;
/** How long the demo waits for its telemetry to be written or sent before it gives up on the rest. */
export const EXIT_FLUSH_BOUND_MS = 5_000;

export class WindDown {
  private stoppedAt?: number;

  /** The stop arrived (the first call counts). */
  stopped(): void {
    this.stoppedAt ??= performance.now();
  }

  /** How long the flush may take from now. */
  flushBoundMs(): number {
    if (this.stoppedAt === undefined) return EXIT_FLUSH_BOUND_MS;
    return Math.max(0, Math.min(EXIT_FLUSH_BOUND_MS, this.stoppedAt + IN_FLIGHT_GRACE_MS + EXIT_FLUSH_BOUND_MS - performance.now()));
  }

  /** Whether the stop's whole budget is spent. */
  pastDeadline(): boolean {
    return this.stoppedAt !== undefined && this.flushBoundMs() === 0;
  }
}

/** `5 s`, `3.2 s`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
