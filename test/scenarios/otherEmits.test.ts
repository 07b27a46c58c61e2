/**
 * A runner run's emits that are no typed event (a stage's own `$emit`, `$debug`, `$metric`) reach the
 * bridge through the run hub, not through a footprintjs emit hook of the bridge's: each becomes a
 * span event on the emitting stage's span (detail full) or on the run span (semantic, which has no
 * stage spans), with its payload flattened, at the moment it was emitted.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { registerInstrument, tracingInstrument, type TraceDetail } from '../../src/index.js';
import { Reporter } from '../support/reporter.js';
import { startSdk } from '../support/sdk.js';
import { render } from '../support/traceTree.js';

const sdk = startSdk({ tracing: false });
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());


/** One Reporter run traced at `detail`: it answers, and its spans are in the SDK. */
async function runTraced(detail: TraceDetail): Promise<void> {
  const undo = registerInstrument(tracingInstrument({ tracerProvider: sdk.provider, detail }));
  try {
    expect((await new Reporter().run('go')).text).toBe('done');
  } finally {
    undo();
  }
}

describe("a runner run's other emits", () => {
  it('are span events on the emitting stage span in detail full', async () => {
    await runTraced('full');
    const spans = sdk.spans();
    expect(render(spans, { events: true })).toBe(['llm_call Reporter', '  Work <x.progress>', '  Answer <x.progress>'].join('\n'));
    expect(spans.find((s) => s.name === 'Work')!.events.map((e) => e.attributes)).toEqual([{ step: 1, 'of.total': 2 }]);
    expect(spans.find((s) => s.name === 'Answer')!.events.map((e) => e.attributes)).toEqual([{ step: 2 }]);
  });

  it('are span events on the run span in detail semantic', async () => {
    await runTraced('semantic');
    const spans = sdk.spans();
    expect(render(spans, { events: true })).toBe('llm_call Reporter <x.progress x.progress>');
    expect(spans[0]!.events.map((e) => e.attributes)).toEqual([{ step: 1, 'of.total': 2 }, { step: 2 }]);
  });
});
