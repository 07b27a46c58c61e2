/**
 * What the OTel SDK alone charges for lineage's data (issue #36), apart from any code that makes it:
 * one traced reference turn of the shipped build is captured, and its exact spans are replayed
 * through the SDK (bench/sdkReplay.ts) as they are and with lineage taken off them (every link, every
 * `footprint.lineage.*` and `gen_ai.attribution.*` attribute). The difference is what any
 * implementation exporting this trace pays the SDK for lineage: the part of "lineage adds at most
 * 3%" that no change to this project's code can remove. Blocks interleaved, both orders, clean
 * blocks (measure.ts), the median of the per-round differences.
 */
import type { TracerProvider } from '@opentelemetry/api';
import type { Build, Mode } from './interleaved.js';
import { LINEAGE_ATTRIBUTE } from './lineageCheck.js';
import { cleanBlock, median } from './measure.js';
import { MESSAGE } from './scenario.js';
import { captureTurn, sdkReplay, type ReplayedSpan } from './sdkReplay.js';

/** A chat span's part table (otel/genai/lineage.ts partArrays: the part arrays and, past their bound, the folded count): this project's choice, beside the links the issue names. */
const PART_TABLE = /^footprint\.lineage\.(part\.|parts_folded$)/;

/** `span` without the attributes `dropped` matches, and without its links unless `links`. */
function stripped(span: ReplayedSpan, dropped: RegExp, links: boolean): ReplayedSpan {
  const attributes = Object.fromEntries(Object.entries(span.attributes).filter(([key]) => !dropped.test(key)));
  const context = span.spanContext();
  const { name, kind, events, parentSpanContext, startTime, endTime } = span;
  return { name, kind, attributes, links: links ? span.links : [], events, parentSpanContext, startTime, endTime, spanContext: () => context };
}

/** `span` with lineage taken off: no links, no lineage attribute. */
export const withoutLineage = (span: ReplayedSpan): ReplayedSpan => stripped(span, LINEAGE_ATTRIBUTE, false);
/** `span` without its part table, its links and their attributes kept. */
export const withoutPartTable = (span: ReplayedSpan): ReplayedSpan => stripped(span, PART_TABLE, true);

export interface SdkFloor {
  /** Median µs per turn of the SDK replaying the turn's spans as exported, without their part tables, and without any lineage. */
  withLineage: number;
  withoutPartTable: number;
  withoutLineage: number;
  /** The medians of the rounds' differences, µs per turn: all of lineage, and the part tables' share of it. */
  lineage: number;
  partTable: number;
}

/** The SDK's share of lineage per mode: `rounds` rounds of one block of each replay, in alternating order. */
export async function lineageSdkFloor(
  build: Build,
  modes: readonly Exclude<Mode, 'untraced'>[],
  { block, rounds, provider }: { block: number; rounds: number; provider: TracerProvider & { forceFlush(): Promise<void> } },
): Promise<Record<string, SdkFloor>> {
  const tracer = provider.getTracer('bench-lineage-sdk-floor');
  const flush = () => provider.forceFlush();
  const floors: Record<string, SdkFloor> = {};
  for (const mode of modes) {
    const spans = await captureTurn(async (capture) => {
      const undo = build.m.registerInstrument(build.m.tracingInstrument({ tracerProvider: capture, detail: mode }));
      try {
        await build.agent.run(MESSAGE);
      } finally {
        undo();
      }
    });
    const replays = [sdkReplay(spans, tracer), sdkReplay(spans.map(withoutPartTable), tracer), sdkReplay(spans.map(withoutLineage), tracer)];
    for (const replay of replays) await cleanBlock(replay.run, 300, flush);
    const times: number[][] = replays.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const which of round % 2 === 0 ? [0, 1, 2] : [2, 1, 0]) times[which]!.push(await cleanBlock(replays[which]!.run, block, flush));
    }
    const [all, noTable, none] = times as [number[], number[], number[]];
    floors[mode] = {
      withLineage: median(all),
      withoutPartTable: median(noTable),
      withoutLineage: median(none),
      lineage: median(all.map((us, i) => us - none[i]!)),
      partTable: median(all.map((us, i) => us - noTable[i]!)),
    };
  }
  return floors;
}
