/**
 * Backpressure from the span queue onto the demo's load: a new run starts only when the queue has
 * room for the spans of every run in flight plus the new one, reckoned from the spans runs have made
 * on average so far (times 1.5, since runs differ). A load faster than the exporter is thus slowed to
 * its pace instead of overflowing the queue and dropping spans. While exports are failing nothing
 * waits: those spans are lost whatever the pace (and counted), and the load must not stall.
 */
import { totalLost, type TelemetryHandle } from '../telemetry/index.js';

const POLL_MS = 2;
const MARGIN = 1.5;

export class SpanBackpressure {
  private finishedRuns = 0;

  constructor(private readonly telemetry: TelemetryHandle) {}

  runFinished(): void {
    this.finishedRuns++;
  }

  /** Resolves when one more run may start next to the runs in flight (or when `stop` fires). */
  async waitForRoom(runsInFlight: () => number, stop: AbortSignal): Promise<void> {
    while (!stop.aborted && runsInFlight() > 0 && !this.hasRoom(runsInFlight() + 1)) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private hasRoom(runs: number): boolean {
    const { spans } = this.telemetry.health();
    if (!spans.exporting || spans.queueCapacity === 0 || this.finishedRuns === 0) return true;
    const offered = spans.exported + totalLost(spans) + spans.queued + spans.inFlight;
    const perRun = (offered / this.finishedRuns) * MARGIN;
    return spans.queued + runs * perRun <= spans.queueCapacity;
  }
}
