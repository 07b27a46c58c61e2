/**
 * The project clock (events/clock.ts) against a wall clock stepped ahead after the process started:
 * the OTel SDK stamps the spans it times itself with Date.now(), so a caller's span started after the
 * step reads later than the project clock. A run span started under it must still start after it, and
 * the clock must never go back when the wall clock does. Isolated (test/support/isolation.ts): moving
 * the project clock forward is process-wide.
 */
import { trace } from '@opentelemetry/api';
import { FlowChartExecutor, flowChart } from 'footprintjs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { catchUpWithWallClock, now } from '../../src/events/index.js';
import { traceExecutor } from '../../src/otel/index.js';
import { quietLogger } from '../../src/runtime/index.js';
import { startSdk } from '../support/sdk.js';
import { structure, toMs } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
afterEach(() => {
  vi.restoreAllMocks();
  sdk.reset();
});

/** Steps the wall clock `ms` ahead of where it is (Date.now() only, as an NTP step would). */
function stepWallClock(ms: number): void {
  const wall = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => wall() + ms);
}

describe('the project clock after the wall clock is stepped', () => {
  it('catches up with a wall clock stepped ahead, and stays put when it is stepped back', () => {
    const before = now();
    stepWallClock(50);
    // What an SDK span started now would read: the clock must not read earlier once it caught up.
    const wall = Date.now();
    catchUpWithWallClock();
    const caughtUp = now();
    expect(caughtUp).toBeGreaterThanOrEqual(wall);
    expect(caughtUp - before).toBeGreaterThan(48);

    vi.restoreAllMocks();
    stepWallClock(-200);
    catchUpWithWallClock();
    expect(now()).toBeGreaterThanOrEqual(caughtUp);
    expect(now()).toBeGreaterThan(Date.now());
  });

  it('starts a run span after its caller span timed by the SDK on a stepped wall clock', async () => {
    // 40 ms ahead of the project clock, wherever the test before left it.
    stepWallClock(now() - Date.now() + 40);
    const chart = flowChart<{ n: number }>('Only', (scope) => void (scope.n = 1), 'only').setLogger(quietLogger).build();
    const executor = traceExecutor(new FlowChartExecutor(chart), { name: 'stepped' });
    await trace.getTracer('test').startActiveSpan('caller', async (caller) => {
      await executor.run({ input: {} });
      caller.end(now());
    });
    const spans = sdk.spans();
    expect(spans.map((s) => s.name).sort()).toEqual(['Only', 'caller', 'run stepped']);
    const caller = spans.find((s) => s.name === 'caller')!;
    const run = spans.find((s) => s.name === 'run stepped')!;
    expect(run.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(toMs(run.startTime)).toBeGreaterThanOrEqual(toMs(caller.startTime));
    expect(structure(spans).problems).toEqual([]);
  });
});
