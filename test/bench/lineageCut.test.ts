/**
 * bench/lineage.ts's correctness check, without its timing: the cut build it makes (bench/lineageCut.ts)
 * of the tests' compiled sources emits no lineage at all, the build it was cut from emits the reference
 * turn's whole lineage, both answer alike with the same spans, and a cut whose entry point is no
 * longer found fails instead of timing two identical builds.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBuild } from '../../bench/interleaved.js';
import { checkLineageCut } from '../../bench/lineageCheck.js';
import { makeLineageCut } from '../../bench/lineageCut.js';
import { compiled } from '../support/compiled.js';

const SHIPPED = path.dirname(compiled('src/index.ts'));
const CUT = path.resolve('node_modules/.bench-lineage/test-cut');
const CHANGED = path.resolve('node_modules/.bench-lineage/test-changed');
afterAll(() => {
  rmSync(CUT, { recursive: true, force: true });
  rmSync(CHANGED, { recursive: true, force: true });
});

const ANSWER = 'Order 1234 shipped; shipping to Lyon costs 12 EUR.';
const nothing = { parts: 0, links: 0, lineageAttributes: 0 };
/** The spans lineage is about (semantic detail has these alone; full detail adds a span per stage execution, test/bench/spanTree.test.ts pins them). */
const CALL_SPANS = ['chat gpt-4o-mini', 'chat gpt-4o-mini', 'chat gpt-4o-mini', 'execute_tool order_status', 'execute_tool shipping_cost', 'invoke_agent bench-agent'];
const callSpans = (names: string[]) => names.filter((name) => /^(chat|execute_tool|invoke_agent) /.test(name));

describe('bench/lineage.ts checks its cut before timing', () => {
  it('the cut build lists no parts and emits no links or lineage attributes; the shipped build all of the turn', async () => {
    makeLineageCut(SHIPPED, CUT);
    const counts = await checkLineageCut(await loadBuild('shipped', SHIPPED), await loadBuild('cut', CUT), ['untraced', 'full', 'semantic']);
    // 3 calls of 5 parts (instructions, the messages so far, the tool list): 1 + 2 + 4 messages;
    // links: call 2 to tool 1 and call 1, call 3 to tools 1 and 2 and call 2, each tool to its call.
    // Attributes: 7 on each of 5 INFORMED_BY links, 2 on each of 2 CAUSED_BY_GENERATION, 3 part
    // arrays on each of 3 chat spans, the 2 shared-parts attributes on calls 2 and 3, 2 answer
    // attributes on the run span.
    const traced = { parts: 15, links: 7, lineageAttributes: 35 + 4 + 9 + 4 + 2 };
    expect(counts.untraced).toEqual({ shipped: { answer: ANSWER, spans: [], parts: 15, links: 0, lineageAttributes: 0 }, cut: { answer: ANSWER, spans: [], ...nothing } });
    for (const detail of ['full', 'semantic'] as const) {
      const { shipped, cut } = counts[detail];
      expect({ ...shipped, spans: callSpans(shipped.spans) }).toEqual({ answer: ANSWER, spans: CALL_SPANS, ...traced });
      expect(cut).toEqual({ answer: ANSWER, spans: shipped.spans, ...nothing });
    }
    expect(counts.semantic.shipped.spans).toEqual(CALL_SPANS);
  });

  it('fails when an entry point is no longer written as the cut expects', () => {
    rmSync(CHANGED, { recursive: true, force: true });
    cpSync(SHIPPED, CHANGED, { recursive: true });
    const file = path.join(CHANGED, 'runtime/agent/callParts.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('export function callParts(turn, config,', 'export function callParts(turn, agentConfig,'));
    expect(() => makeLineageCut(CHANGED, CUT)).toThrow(
      `bench/lineageCut.ts: "export function callParts(turn, config, { request, origins, dropped }, key) {" is not found exactly once in runtime/agent/callParts.js of ${CHANGED}: lineage's entry points changed, update LINEAGE_CUT`,
    );
  });
});
