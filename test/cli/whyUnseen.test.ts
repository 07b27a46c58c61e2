/**
 * What `why` cannot see, marked instead of guessed: a producer in a trace that is not in the files,
 * a producer span its own trace does not hold (sampled out or lost), folded links, a linked trace past
 * the bound on linked traces. And a run that continues a stored conversation: the slice crosses into
 * the earlier run's trace when the files hold it.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plainLine } from '../../src/cli/terminal.js';
import { MAX_LINKED_TRACES, whyCommand } from '../../src/cli/why.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { semconv } from '../../src/index.js';
import { tempDir } from '../support/cli.js';
import { chat, writeLineage, type SpanSpec } from './whyFixtures.js';

const run = (runId: string): SpanSpec => ({ name: 'run', title: 'invoke_workflow desk', attributes: { [semconv.ATTR_FOOTPRINT_RUN_ID]: runId } });
const answerOf = (callId: string, parts: [string, string, number][], extra: Record<string, number> = {}) => ({
  ...chat({ callId, model: 'm', agent: 'tech', iteration: 1, input: 10, output: 2, cost: 0.001, parts }),
  ...extra,
});
const ANSWER = 'chat m  member tech  route desk>tech  iteration 1  model m  tokens 10 in / 2 out  $0.001000';

describe('why marks what it cannot see', () => {
  const temp = tempDir('why-unseen');
  afterAll(() => temp.remove());
  let n = 0;
  const folder = () => path.join(temp.dir, `case-${++n}`);
  const json = async (dir: string, extra: { run?: string; trace?: string } = {}) => JSON.parse((await whyCommand({ path: dir, json: true, ...extra })).lines.join('\n')) as WhyGraph;

  it('a producer in a trace the files do not hold, and one its own trace lacks (sampled out), each marked "not in these files"', async () => {
    const dir = folder();
    const elsewhere = { traceId: 'e'.repeat(32), spanId: '1'.repeat(16), traceFlags: 1 };
    const written = await writeLineage(dir, [
      run('run_a'),
      { name: 'lost', title: 'execute_tool lookup', parent: 'run', unexported: true },
      {
        name: 'answer', title: 'chat m', parent: 'run', attributes: answerOf('call_a', [['conversation', 'call_old', 5], ['tool_result', 'call_x:t', 3]]),
        links: [
          { to: 'earlier', type: 'INFORMED_BY', origin: 'conversation', parts: [0], tokens: 5, producer: 'call_old' },
          { to: 'lost', type: 'INFORMED_BY', origin: 'tool_result', parts: [1], tokens: 3, producer: 'call_x:t' },
        ],
      },
    ], { answer: 'answer', foreign: { earlier: elsewhere } });
    const traceId = written.traceIds.get('run')!;
    const lost = written.ids.get('lost')!;
    const result = await whyCommand({ path: dir, json: false });
    expect(result.lines.map(plainLine).slice(1)).toEqual([
      ANSWER,
      `├─ conversation #0 (5 tok) INFORMED_BY ← [not in these files: span ${'1'.repeat(16)} of trace ${'e'.repeat(32)}: its trace is not there (another run not exported here, or not kept)]`,
      `└─ tool_result #1 (3 tok) INFORMED_BY ← [not in these files: span ${lost} of trace ${traceId}: its trace is there, the span is not (sampled out or lost)]`,
    ]);
    const graph = await json(dir);
    expect(graph.nodes.slice(1).map((node) => [node.spanId, node.traceId, node.missing])).toEqual([
      ['1'.repeat(16), 'e'.repeat(32), 'trace_absent'],
      [lost, traceId, 'span_absent'],
    ]);
    expect(graph.edges.map((e) => e.toTraceId)).toEqual(['e'.repeat(32), undefined]);
  });

  it('folded links and parts are counted on the node: [N folded]; a part keeps its place among all the call was sent', async () => {
    const dir = folder();
    await writeLineage(dir, [
      run('run_f'),
      { name: 'answer', title: 'chat m', parent: 'run', attributes: answerOf('call_f', [['run_input', 'run_f', 4]], { [semconv.ATTR_FOOTPRINT_LINEAGE_LINKS_FOLDED]: 3, [semconv.ATTR_FOOTPRINT_LINEAGE_PARTS_FOLDED]: 7 }) },
    ], { answer: 'answer' });
    const lines = (await whyCommand({ path: dir, json: false })).lines.map(plainLine);
    expect(lines.slice(1)).toEqual([`${ANSWER}  [3 folded]  [7 parts folded]`, `└─ run_input #7 (4 tok) ← the run's input: invoke_workflow desk  run run_f`]);
    expect((await json(dir)).nodes[0]!.attributes).toMatchObject({ 'footprint.lineage.links_folded': 3, 'footprint.lineage.parts_folded': 7 });
  });

  it('a run that continues a stored conversation is walked into the earlier run, whose trace the files hold', async () => {
    const dir = folder();
    const first = await writeLineage(dir, [
      run('run_1'),
      { name: 'answer', title: 'chat m', parent: 'run', attributes: answerOf('call_1', [['run_input', 'run_1', 4]]) },
    ], { answer: 'answer' });
    const earlier = { traceId: first.traceIds.get('answer')!, spanId: first.ids.get('answer')!, traceFlags: 1 };
    const second = await writeLineage(dir, [
      run('run_2'),
      {
        name: 'answer', title: 'chat m', parent: 'run', attributes: answerOf('call_2', [['conversation', 'call_1', 2], ['run_input', 'run_2', 4]]),
        links: [{ to: 'earlier', type: 'INFORMED_BY', origin: 'conversation', parts: [0], tokens: 2, producer: 'call_1' }],
      },
    ], { answer: 'answer', foreign: { earlier } });
    const lines = (await whyCommand({ path: dir, run: 'run_2', json: false })).lines.map(plainLine);
    expect(lines.slice(1)).toEqual([
      ANSWER,
      `├─ conversation #0 (2 tok) INFORMED_BY ← ${ANSWER}`,
      `│  └─ run_input #0 (4 tok) ← the run's input: invoke_workflow desk  run run_1`,
      `└─ run_input #1 (4 tok) ← the run's input: invoke_workflow desk  run run_2`,
    ]);
    const graph = await json(dir, { run: 'run_2' });
    expect(graph.edges.map((e) => [e.from, e.to, e.toTraceId])).toEqual([
      [second.ids.get('answer'), first.ids.get('answer'), first.traceIds.get('run')],
      [second.ids.get('answer'), second.ids.get('run'), undefined],
      [first.ids.get('answer'), first.ids.get('run'), undefined],
    ]);
  });

  it(`reads at most ${MAX_LINKED_TRACES} linked traces; a producer in one more is marked "not read"`, async () => {
    const dir = folder();
    const earlier: Record<string, { traceId: string; spanId: string; traceFlags: number }> = {};
    for (let i = 0; i <= MAX_LINKED_TRACES; i++) {
      const w = await writeLineage(dir, [run(`run_old_${i}`), { name: 'answer', title: 'chat m', parent: 'run', attributes: answerOf(`call_${i}`, []) }], { answer: 'answer' });
      earlier[`e${i}`] = { traceId: w.traceIds.get('answer')!, spanId: w.ids.get('answer')!, traceFlags: 1 };
    }
    const names = Object.keys(earlier);
    await writeLineage(dir, [
      run('run_new'),
      {
        name: 'answer', title: 'chat m', parent: 'run', attributes: answerOf('call_new', []),
        links: names.map((to, i) => ({ to, type: 'INFORMED_BY' as const, origin: 'conversation', parts: [i] })),
      },
    ], { answer: 'answer', foreign: earlier });
    const graph = await json(dir, { run: 'run_new' });
    const linked = graph.nodes.filter((node) => node.spanId !== graph.root);
    expect(linked.map((node) => node.missing ?? 'read')).toEqual([...Array(MAX_LINKED_TRACES).fill('read'), 'trace_not_read']);
    const lines = (await whyCommand({ path: dir, run: 'run_new', json: false })).lines.map(plainLine);
    expect(lines.at(-1)).toBe(`└─ conversation #${MAX_LINKED_TRACES} INFORMED_BY ← [not in these files: span ${earlier[names.at(-1)!]!.spanId} of trace ${earlier[names.at(-1)!]!.traceId}: one more linked trace than a slice reads]`);
  });

  it('a trace still being written (its run and agent spans not exported yet): the parts whose producer is one of them are counted, not dropped', async () => {
    const dir = folder();
    const written = await writeLineage(dir, [
      { ...run('run_w'), unexported: true },
      { name: 'agent', title: 'invoke_agent Tech support', parent: 'run', attributes: { [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent' }, unexported: true },
      { name: 'answer', title: 'chat m', parent: 'agent', attributes: answerOf('call_w', [['instructions', 'tech', 5], ['run_input', 'run_w', 4], ['tool_definitions', 'tech', 30]]) },
    ]);
    const traceId = written.traceIds.get('run')!;
    const lines = (await whyCommand({ path: dir, trace: traceId, json: false })).lines.map(plainLine);
    expect(lines.slice(1)).toEqual([`${ANSWER}  [3 parts whose producer is not in these files]`]);
    const graph = await json(dir, { trace: traceId });
    expect([graph.nodes.map((n) => [n.spanId, n.partsUnseen]), graph.edges]).toEqual([[[written.ids.get('answer'), 3]], []]);
  });

  it('a model call whose span has no part table (files written before lineage): its input is marked unknown, not drawn as empty', async () => {
    const dir = folder();
    const { [semconv.ATTR_FOOTPRINT_LINEAGE_PART_ORIGINS]: _o, [semconv.ATTR_FOOTPRINT_LINEAGE_PART_PRODUCERS]: _p, [semconv.ATTR_FOOTPRINT_LINEAGE_PART_TOKENS]: _t, ...old } = answerOf('call_o', []);
    const written = await writeLineage(dir, [run('run_o'), { name: 'answer', title: 'chat m', parent: 'run', attributes: old }]);
    const lines = (await whyCommand({ path: dir, json: false })).lines.map(plainLine);
    expect(lines.slice(1)).toEqual([`${ANSWER}  [no part table: what it was sent is not in these files]`]);
    const graph = await json(dir);
    expect([graph.nodes.map((n) => [n.spanId, n.noPartTable]), graph.edges]).toEqual([[[written.ids.get('answer'), true]], []]);
  });
});
