/**
 * bench/lineageSdkFloor.ts's two strippings of a captured turn, on a real reference turn traced into
 * the real SDK: "without lineage" keeps every span, event and other attribute and drops each link and
 * every lineage attribute; "without the part table" drops only the chat spans' part arrays. The
 * timing itself is the benchmark's; what it replays is pinned here.
 */
import { describe, expect, it } from 'vitest';
import { withoutLineage, withoutPartTable } from '../../bench/lineageSdkFloor.js';
import { captureTurn } from '../../bench/sdkReplay.js';
import { MESSAGE, referenceAgent } from '../../bench/scenario.js';
import { registerInstrument, tracingInstrument } from '../../src/index.js';

const LINEAGE = /^(footprint\.lineage\.|gen_ai\.attribution\.)/;
const PART_TABLE = ['footprint.lineage.part.origins', 'footprint.lineage.part.producers', 'footprint.lineage.part.tokens'];

describe('the SDK floor of lineage replays the turn with less on it', () => {
  it('takes off links and lineage attributes, or the part tables alone, and leaves the rest as it was', async () => {
    const agent = referenceAgent();
    const spans = await captureTurn(async (provider) => {
      const undo = registerInstrument(tracingInstrument({ tracerProvider: provider, detail: 'semantic' }));
      await agent.run(MESSAGE);
      undo();
    });
    const chats = spans.filter((span) => span.name.startsWith('chat '));
    expect(chats.map((span) => span.links.length)).toEqual([0, 2, 3]);
    for (const chat of chats) expect(Object.keys(chat.attributes)).toEqual(expect.arrayContaining(PART_TABLE));

    const bare = spans.map(withoutLineage);
    expect(bare.map((span) => span.links.length)).toEqual(spans.map(() => 0));
    expect(bare.map((span) => Object.keys(span.attributes).filter((key) => LINEAGE.test(key)))).toEqual(spans.map(() => []));
    bare.forEach((span, i) => {
      const original = spans[i]!;
      expect([span.name, span.kind, span.events, span.startTime, span.endTime, span.parentSpanContext, span.spanContext()]).toEqual([
        original.name,
        original.kind,
        original.events,
        original.startTime,
        original.endTime,
        original.parentSpanContext,
        original.spanContext(),
      ]);
      expect(span.attributes).toEqual(Object.fromEntries(Object.entries(original.attributes).filter(([key]) => !LINEAGE.test(key))));
    });

    const untabled = spans.map(withoutPartTable);
    untabled.forEach((span, i) => {
      const original = spans[i]!;
      expect(span.links).toBe(original.links);
      expect(span.attributes).toEqual(Object.fromEntries(Object.entries(original.attributes).filter(([key]) => !PART_TABLE.includes(key))));
    });
  });
});
