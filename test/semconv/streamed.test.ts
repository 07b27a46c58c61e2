/**
 * A streamed run against the pinned v1.41 GenAI model: every span and metric point of an agent whose
 * two model calls stream (a tool call in argument fragments, then an answer in chunks). The checker
 * requires gen_ai.request.stream and gen_ai.response.time_to_first_chunk on the chat spans (the
 * scenario streams), and judges the two streamed-call histograms; the extra tests pin what one
 * attribute rule cannot: which histograms exist, and their record counts.
 */
import { DataPointType, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { expect, it } from 'vitest';
import { conformanceSuite } from './conformance.js';
import { ANSWER, runStreamed, streamedFacts, streamedPointFacts } from './scenarios/streamed.js';

conformanceSuite(
  {
    name: 'a streamed agent run: a tool call in fragments, an answer in chunks',
    telemetry: { captureContent: true },
    run: async () => {
      expect(await runStreamed()).toEqual({ text: ANSWER, result: ANSWER });
    },
    availableOnSpan: streamedFacts,
    availableOnPoint: streamedPointFacts,
  },
  (result) => {
    it('records time to first chunk once per call and time per output chunk once per chunk after the first', async () => {
      const exported = await result().telemetry.collectMetrics();
      const histograms = exported.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .filter((m): m is HistogramMetricData => m.dataPointType === DataPointType.HISTOGRAM && /time_(to_first|per_output)_chunk$/.test(m.descriptor.name));
      // The answer is 17 characters in chunks of 4 (5 chunks); the tool call's arguments, 17 characters (5 fragments): 4 + 4 gaps.
      expect(histograms.map((m) => [m.descriptor.name, m.dataPoints.map((p) => p.value.count)])).toEqual([
        ['gen_ai.client.inference.time_to_first_chunk', [2]],
        ['gen_ai.client.inference.time_per_output_chunk', [8]],
      ]);
    });

    it('sets gen_ai.request.stream to true on every chat span', () => {
      const chats = result().telemetry.spans().filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
      expect(chats.map((s) => s.attributes['gen_ai.request.stream'])).toEqual([true, true]);
    });
  },
);
