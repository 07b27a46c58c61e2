/**
 * The two histograms of a streamed call, read back from the real SDK: time_to_first_chunk, one
 * record per streamed call (its first chunk's atMs), and time_per_output_chunk, one record per chunk
 * after the first (the time since the chunk before it), both with the semconv bucket boundaries and
 * exactly the model-call attributes; a call that did not stream records neither. A reply that waits
 * 300 ms before its first chunk and 20 ms between chunks gives those times, within stated tolerances,
 * in the metric and on the span.
 */
import { ValueType } from '@opentelemetry/api';
import { DataPointType, InstrumentType } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, scripted, type EventPayloads } from '../../../src/index.js';
import { DURATION_BUCKETS, METRICS } from '../../../src/otel/metrics/index.js';
import { meteredRuns } from '../../support/meter.js';
import { startSdk } from '../../support/sdk.js';
import { drain } from '../../support/streams.js';

const metrics = meteredRuns();
const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const TTFC = METRICS.timeToFirstChunk.name;
const PER_CHUNK = METRICS.timePerOutputChunk.name;

/** An agent on its own model id, so each test reads its own series. */
function agent(model: string, reply: { chunks: string[]; delayMs?: number; chunkDelayMs?: number }) {
  const provider = scripted({ name: 'openai', replies: [{ ...reply, usage: { input: 5, output: 5 } }] });
  const built = Agent.create({ provider, model, id: 'helper' }).build();
  const ends: EventPayloads['footprint.call.llm_end'][] = [];
  built.on('footprint.call.llm_end', (event) => void ends.push(event.payload));
  return { agent: built, ends };
}

const attributesOf = (model: string) => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': model,
  'gen_ai.response.model': model,
  'footprint.agent': 'helper',
});

describe('a streamed call', () => {
  it('records its time to first chunk once and one time per chunk after the first, from llm_end', async () => {
    const { agent: streamer, ends } = agent('m-stream', { chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 1 });
    await drain(streamer.stream('hi'));
    const [end] = ends;
    expect(end!.streamed!.chunks).toBe(4);
    expect(end!.streamed!.chunkGapsMs).toHaveLength(3);

    const c = await metrics.collect();
    for (const name of [TTFC, PER_CHUNK]) {
      const metric = c.metric(name)!;
      expect(metric.descriptor).toMatchObject({ unit: 's', type: InstrumentType.HISTOGRAM, valueType: ValueType.DOUBLE });
      expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
    }
    const ttfc = c.series(TTFC, { 'gen_ai.request.model': 'm-stream' });
    expect(ttfc.map((s) => [s.attributes, s.histogram!.count, s.histogram!.sum, s.histogram!.buckets.boundaries])).toEqual([
      [attributesOf('m-stream'), 1, end!.streamed!.firstChunkMs! / 1000, [...DURATION_BUCKETS]],
    ]);
    const perChunk = c.series(PER_CHUNK, { 'gen_ai.request.model': 'm-stream' });
    expect(perChunk.map((s) => [s.attributes, s.histogram!.count, s.histogram!.buckets.boundaries])).toEqual([[attributesOf('m-stream'), 3, [...DURATION_BUCKETS]]]);
    const gapsSeconds = end!.streamed!.chunkGapsMs.map((ms) => ms / 1000);
    expect(perChunk[0]!.histogram!.sum).toBeCloseTo(gapsSeconds.reduce((a, b) => a + b, 0), 12);
    expect([perChunk[0]!.histogram!.min, perChunk[0]!.histogram!.max]).toEqual([Math.min(...gapsSeconds), Math.max(...gapsSeconds)]);
  });

  it('records neither histogram for a call that did not stream', async () => {
    const { agent: plain } = agent('m-plain', { chunks: ['a', 'b', 'c'] });
    expect((await plain.run('hi')).text).toBe('abc');
    const c = await metrics.collect();
    expect(c.series(METRICS.operationDuration.name, { 'gen_ai.request.model': 'm-plain' })).toHaveLength(1);
    expect([c.series(TTFC, { 'gen_ai.request.model': 'm-plain' }), c.series(PER_CHUNK, { 'gen_ai.request.model': 'm-plain' })]).toEqual([[], []]);
  });

  // Tolerances: a timer never fires early but may fire late on a loaded machine, so each measured time
  // is at least its delay less 1 ms (timer and clock rounding) and at most the delay plus 250 ms.
  it('gives 300 ms to the first chunk and 20 ms per chunk, in the metric and on the span', async () => {
    const { agent: slow } = agent('m-slow', { chunks: ['a', 'b', 'c', 'd', 'e', 'f'], delayMs: 300, chunkDelayMs: 20 });
    await drain(slow.stream('hi'));
    const c = await metrics.collect();
    const ttfc = c.series(TTFC, { 'gen_ai.request.model': 'm-slow' })[0]!.histogram!;
    const perChunk = c.series(PER_CHUNK, { 'gen_ai.request.model': 'm-slow' })[0]!.histogram!;
    const within = (seconds: number, delayMs: number) => seconds >= (delayMs - 1) / 1000 && seconds <= (delayMs + 250) / 1000;
    expect([ttfc.count, within(ttfc.sum!, 300)]).toEqual([1, true]);
    expect([perChunk.count, within(perChunk.min!, 20), within(perChunk.max!, 20)]).toEqual([5, true, true]);
    const span = sdk.spans().find((s) => s.name === 'chat m-slow')!;
    expect(span.attributes['gen_ai.response.time_to_first_chunk']).toBe(ttfc.sum);
  });
});
