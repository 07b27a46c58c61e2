/**
 * What a traced turn's spans cost the OTel SDK by themselves. `captureTurn` records one turn's
 * finished spans (names, kinds, parents, attributes, events, links); `sdkReplay` makes a PeerTurn
 * that starts, annotates and ends exactly those spans through the benchmark's tracer, with no
 * runtime and no bridge around them. Timed beside the real traced turn in bench/peer.ts, it splits a
 * library's tracing overhead into the SDK's share (what any library exporting that trace pays) and
 * the library's own code (events to spans, attribute maps, lineage, their garbage).
 */
import { ROOT_CONTEXT, trace, type Span, type Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { PeerTurn } from './peerTurn.js';

const byTime = (at: (s: ReplayedSpan) => [number, number]) => (a: ReplayedSpan, b: ReplayedSpan) => at(a)[0] - at(b)[0] || at(a)[1] - at(b)[1];

/** One turn's finished spans, in start order, from `turn` run once with a capturing provider. */
export async function captureTurn(turn: (provider: BasicTracerProvider) => Promise<unknown>): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  await turn(provider);
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans().slice().sort(byTime((s) => s.startTime));
  await provider.shutdown();
  return spans;
}

/** What a replay reads of a captured span (a ReadableSpan, or a copy of one with less on it: bench/lineageSdkFloor.ts). */
export type ReplayedSpan = Pick<ReadableSpan, 'name' | 'kind' | 'attributes' | 'links' | 'events' | 'parentSpanContext' | 'startTime' | 'endTime' | 'spanContext'>;

/**
 * A turn that replays `spans` into `tracer`: each started under its captured parent with its
 * attributes and links, given its events, and ended in its captured end order. The captured objects
 * are handed over as they are: the SDK copies what it keeps, as it does for any caller.
 */
export function sdkReplay(spans: readonly ReplayedSpan[], tracer: Tracer): PeerTurn {
  const endOrder = spans.slice().sort(byTime((s) => s.endTime));
  const answer = spans.length;
  return {
    run: async () => {
      const started = new Map<string, Span>();
      for (const captured of spans) {
        const parentId = captured.parentSpanContext?.spanId;
        const parent = parentId === undefined ? undefined : started.get(parentId);
        const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
        const span = tracer.startSpan(captured.name, { kind: captured.kind, attributes: captured.attributes, links: captured.links }, context);
        for (const event of captured.events) span.addEvent(event.name, event.attributes);
        started.set(captured.spanContext().spanId, span);
      }
      for (const captured of endOrder) started.get(captured.spanContext().spanId)!.end();
      return String(answer);
    },
    reset: () => {},
  };
}

/**
 * A traced mode's turn split in three: the same turn untraced, the SDK replaying its exact spans, and
 * the rest, the library's own tracing code. `traced / (untraced + sdk)` is the turn against its
 * floor with the trace it actually exports (each a median of interleaved blocks, so the own-code
 * part is a difference of medians: on a loaded machine it can read below zero).
 */
export interface OverheadSplit {
  mode: string;
  traced: number;
  untraced: number;
  /** The SDK replaying the mode's exact spans. */
  sdk: number;
}

export function splitLines(splits: readonly OverheadSplit[]): string[] {
  return splits.map(
    ({ mode, traced, untraced, sdk }) =>
      `  ${mode} ${traced.toFixed(0)} µs = untraced ${untraced.toFixed(0)} + the OTel SDK alone for its spans ${sdk.toFixed(0)} + its own tracing code ${(traced - untraced - sdk).toFixed(0)}: ${(traced / (untraced + sdk)).toFixed(2)}x untraced + SDK`,
  );
}
