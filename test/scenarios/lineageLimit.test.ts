/**
 * Lineage links under process-wide settings (docs/lineage.md), so in a worker of its own
 * (test/support/isolation.ts): the link limit, OTEL_SPAN_LINK_COUNT_LIMIT, read when the tracing
 * instrument settles its options, less one (a chat span keeps its newest producers' links and says how
 * many it folded); and the fingerprint key, whose fingerprints the links carry.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerInstrument, setFingerprintKey, tracingInstrument, type InputPart } from '../../src/index.js';
import { twoToolAgent } from '../support/agents.js';
import { lineageOf } from '../support/lineageLinks.js';
import { startSdk } from '../support/sdk.js';

const sdk = startSdk({ tracing: false });
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());
let unregister = () => {};
afterEach(() => unregister());

describe('the link limit (OTEL_SPAN_LINK_COUNT_LIMIT)', () => {
  const LIMIT_ENV = 'OTEL_SPAN_LINK_COUNT_LIMIT';
  afterEach(() => delete process.env[LIMIT_ENV]);

  it('a call with more producers than the limit less one keeps the newest and says how many it folded', async () => {
    process.env[LIMIT_ENV] = '3';
    unregister = registerInstrument(tracingInstrument({}));
    await twoToolAgent().run('hi');
    const spans = sdk.spans();
    const lineage = lineageOf(spans);
    // Two links a span (three less one): call 2 had three producers, call 3 four.
    expect([lineage['chat m1 call#2'], lineage['chat m1 call#3']]).toEqual([
      ['INFORMED_BY tool_result messages[2] 16c/4t call#1:c1 → execute_tool lookup c1', 'INFORMED_BY tool_result messages[3] 5c/2t call#1:c2 → execute_tool weather c2'],
      ['INFORMED_BY model_output messages[4] 24c/6t call#2 → chat m1 call#2', 'INFORMED_BY tool_result messages[5] 16c/4t call#2:c3 → execute_tool lookup c3'],
    ]);
    expect(spans.filter((s) => s.name === 'chat m1').map((s) => s.attributes['footprint.lineage.links_folded'])).toEqual([undefined, 1, 2]);
  });
});

describe('with a fingerprint key', () => {
  afterEach(() => setFingerprintKey(undefined));

  it("each link carries its producer's parts' fingerprints, the ones llm_start gave", async () => {
    setFingerprintKey('lineage-test-key');
    unregister = registerInstrument(tracingInstrument({}));
    const helper = twoToolAgent();
    const parts: InputPart[][] = [];
    helper.on('footprint.call.llm_start', (event) => void parts.push(event.payload.parts));
    await helper.run('hi');
    const third = sdk.spans().filter((s) => s.name === 'chat m1')[2]!;
    // call 3: the first reply's tool results (2, 3), the second reply (4) and its result (5).
    const fingerprintsAt = (indexes: number[]) => indexes.map((index) => parts[2]!.find((part) => part.slot === 'messages' && part.index === index)!.fingerprint);
    expect(third.links.map((link) => link.attributes!['footprint.lineage.fingerprints'])).toEqual([[2], [3], [4], [5]].map(fingerprintsAt));
    expect(fingerprintsAt([2, 3, 4, 5]).every((fingerprint) => /^[A-Za-z0-9_-]{16}$/.test(fingerprint!))).toBe(true);
  });
});

