/**
 * `footprint-otel why` on lineage written by the real SDK through the file exporter
 * (whyFixtures.ts): a skill-graph turn of three model calls whose first two asked for read_skill
 * and were refused. The tree, its --json DAG, the run chosen by --run, --trace and --span, and each
 * thing it marks as unseen: a producer in a trace not in the files, a span sampled out of its trace,
 * folded links, a linked trace past the bound. A run that continues a stored conversation is walked
 * into the earlier run's trace.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainLine } from '../../src/cli/terminal.js';
import { whyCommand } from '../../src/cli/why.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { semconv } from '../../src/index.js';
import { cli, tempDir } from '../support/cli.js';
import { chat, isDag, tool, writeLineage, type SpanSpec, type Written } from './whyFixtures.js';

const RUN = {
  [semconv.ATTR_FOOTPRINT_RUN_ID]: 'run_1',
  [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'invoke_workflow',
};
const AGENT = { [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent', [semconv.ATTR_FOOTPRINT_MEMBER_ID]: 'tech' };
const PARTS_1: [string, string, number][] = [['instructions', 'tech', 20], ['skill', 'hop_1', 30], ['run_input', 'run_1', 10]];

/** The skill-graph turn: entry hop (on the first iteration's CallLLM stage span), two refused read_skill calls, the answer. */
function trippedTurn(): SpanSpec[] {
  return [
    { name: 'run', title: 'invoke_workflow desk', attributes: RUN },
    { name: 'agent', title: 'invoke_agent Tech support', parent: 'run', attributes: AGENT },
    { name: 'call1', title: 'CallLLM', parent: 'agent', hop: { id: 'hop_1', to: 'triage', cause: 'entry' } },
    {
      name: 'c1', title: 'chat claude-haiku-4-5', parent: 'agent',
      attributes: chat({ callId: 'call_1', model: 'claude-haiku-4-5', agent: 'tech', skill: 'triage', iteration: 1, input: 60, output: 8, cost: 0.0001, parts: PARTS_1 }),
      links: [{ to: 'call1', type: 'INFORMED_BY', origin: 'skill', parts: [1], tokens: 30, producer: 'hop_1' }],
    },
    { name: 't1', title: 'execute_tool read_skill', parent: 'agent', attributes: tool('read_skill', 't1', 1), error: 'read_skill refused', links: [{ to: 'c1', type: 'CAUSED_BY_GENERATION', producer: 'call_1' }] },
    {
      name: 'c2', title: 'chat claude-haiku-4-5', parent: 'agent',
      attributes: chat({ callId: 'call_2', model: 'claude-haiku-4-5', agent: 'tech', skill: 'triage', iteration: 2, input: 90, output: 8, cost: 0.0002, parts: [...PARTS_1, ['model_output', 'call_1', 8], ['tool_result', 'call_1:t1', 12]] }),
      links: [
        { to: 'call1', type: 'INFORMED_BY', origin: 'skill', parts: [1], tokens: 30, producer: 'hop_1' },
        { to: 'c1', type: 'INFORMED_BY', origin: 'model_output', parts: [1], tokens: 8, producer: 'call_1' },
        { to: 't1', type: 'INFORMED_BY', origin: 'tool_result', parts: [2], tokens: 12, producer: 'call_1:t1' },
      ],
    },
    { name: 't2', title: 'execute_tool read_skill', parent: 'agent', attributes: tool('read_skill', 't2', 2), error: 'read_skill refused', links: [{ to: 'c2', type: 'CAUSED_BY_GENERATION', producer: 'call_2' }] },
    {
      name: 'c3', title: 'chat claude-sonnet-4-5', parent: 'agent',
      attributes: chat({ callId: 'call_3', model: 'claude-sonnet-4-5', agent: 'tech', skill: 'triage', iteration: 3, input: 120, output: 40, cost: 0.004992, parts: [...PARTS_1, ['model_output', 'call_1', 8], ['tool_result', 'call_1:t1', 12], ['model_output', 'call_2', 8], ['tool_result', 'call_2:t2', 12]] }),
      links: [
        { to: 'call1', type: 'INFORMED_BY', origin: 'skill', parts: [1], tokens: 30, producer: 'hop_1' },
        { to: 'c2', type: 'INFORMED_BY', origin: 'model_output', parts: [3], tokens: 8, producer: 'call_2' },
        { to: 't1', type: 'INFORMED_BY', origin: 'tool_result', parts: [2], tokens: 12, producer: 'call_1:t1' },
        { to: 't2', type: 'INFORMED_BY', origin: 'tool_result', parts: [4], tokens: 12, producer: 'call_2:t2' },
      ],
    },
  ];
}

const C1 = 'chat claude-haiku-4-5  member tech  route desk>tech  skill triage  iteration 1  model claude-haiku-4-5  tokens 60 in / 8 out  $0.000100';
const C2 = 'chat claude-haiku-4-5  member tech  route desk>tech  skill triage  iteration 2  model claude-haiku-4-5  tokens 90 in / 8 out  $0.000200';
const C3 = 'chat claude-sonnet-4-5  member tech  route desk>tech  skill triage  iteration 3  model claude-sonnet-4-5  tokens 120 in / 40 out  $0.004992';
const HOP = 'hop → triage (entry) hop_1: CallLLM';
const T1 = 'execute_tool read_skill  member tech  iteration 1  ERROR';
const T2 = 'execute_tool read_skill  member tech  iteration 2  ERROR';

describe('why on lineage written by the SDK', () => {
  const temp = tempDir('why');
  const dir = path.join(temp.dir, 'telemetry');
  let written: Written;
  beforeAll(async () => {
    written = await writeLineage(dir, trippedTurn(), { answer: 'c3' });
  });
  afterAll(() => temp.remove());
  const id = (name: string) => written.ids.get(name)!;
  const traceId = () => written.traceIds.get('run')!;

  it('draws the answer back to the refused read_skill calls, the hop that set the skill, and the run input', async () => {
    const result = await whyCommand({ path: dir, json: false });
    expect(result.warnings).toEqual([]);
    expect(result.lines.map(plainLine)).toEqual([
      `why: run run_1, trace ${traceId()} from ${dir}: the answer ← what its input came from`,
      C3,
      `├─ skill #1 (30 tok) INFORMED_BY ← ${HOP}`,
      `├─ model_output #3 (8 tok) INFORMED_BY ← ${C2}`,
      `│  ├─ model_output #1 (8 tok) INFORMED_BY ← ${C1}`,
      `│  │  ├─ instructions #0 (20 tok) ← invoke_agent Tech support`,
      `│  │  ├─ run_input #2 (10 tok) ← the run's input: invoke_workflow desk  run run_1`,
      `│  │  └─ also, shown above: skill #1 ← hop → triage`,
      `│  ├─ tool_result #2 (12 tok) INFORMED_BY ← ${T1}`,
      `│  │  └─ also, shown above: generation ← chat claude-haiku-4-5 (iteration 1)`,
      `│  └─ also, shown above: skill #1 ← hop → triage, instructions #0 ← invoke_agent Tech support, run_input #2 ← the run's input`,
      `├─ tool_result #4 (12 tok) INFORMED_BY ← ${T2}`,
      `│  └─ also, shown above: generation ← chat claude-haiku-4-5 (iteration 2)`,
      `└─ also, shown above: tool_result #2 ← execute_tool read_skill (iteration 1), instructions #0 ← invoke_agent Tech support, run_input #2 ← the run's input`,
    ]);
  });

  it('is deterministic: the same files, the same answer', async () => {
    const [first, second] = [await whyCommand({ path: dir, json: true }), await whyCommand({ path: dir, json: true })];
    expect(second).toEqual(first);
  });

  it('--json is the same slice as a DAG: every node a span of the files, every edge with its link type, origin and parts', async () => {
    const graph = JSON.parse((await whyCommand({ path: dir, json: true })).lines.join('\n')) as WhyGraph;
    expect(graph.root).toBe(id('c3'));
    expect(graph.runId).toBe('run_1');
    expect(graph.nodes.map((n) => [n.name, n.kind, n.spanId])).toEqual([
      ['chat claude-sonnet-4-5', 'chat', id('c3')],
      ['CallLLM', 'hop', id('call1')],
      ['chat claude-haiku-4-5', 'chat', id('c2')],
      ['execute_tool read_skill', 'tool', id('t1')],
      ['execute_tool read_skill', 'tool', id('t2')],
      ['invoke_agent Tech support', 'agent', id('agent')],
      ['invoke_workflow desk', 'run', id('run')],
      ['chat claude-haiku-4-5', 'chat', id('c1')],
    ]);
    const e = (from: string, to: string, linkType: string | null, origin: string, partIndexes: number[], tokens?: number) => ({
      from: id(from), to: id(to), linkType, origin, partIndexes, ...(tokens === undefined ? {} : { tokens }),
    });
    expect([...graph.edges].sort(byEdge)).toEqual([
      e('c3', 'call1', 'INFORMED_BY', 'skill', [1], 30),
      e('c3', 'c2', 'INFORMED_BY', 'model_output', [3], 8),
      e('c3', 't1', 'INFORMED_BY', 'tool_result', [2], 12),
      e('c3', 't2', 'INFORMED_BY', 'tool_result', [4], 12),
      e('c3', 'agent', null, 'instructions', [0], 20),
      e('c3', 'run', null, 'run_input', [2], 10),
      e('c2', 'call1', 'INFORMED_BY', 'skill', [1], 30),
      e('c2', 'c1', 'INFORMED_BY', 'model_output', [1], 8),
      e('c2', 't1', 'INFORMED_BY', 'tool_result', [2], 12),
      e('c2', 'agent', null, 'instructions', [0], 20),
      e('c2', 'run', null, 'run_input', [2], 10),
      e('c1', 'call1', 'INFORMED_BY', 'skill', [1], 30),
      e('c1', 'agent', null, 'instructions', [0], 20),
      e('c1', 'run', null, 'run_input', [2], 10),
      e('t1', 'c1', 'CAUSED_BY_GENERATION', 'generation', []),
      e('t2', 'c2', 'CAUSED_BY_GENERATION', 'generation', []),
    ].sort(byEdge));
    expect(graph.cycles).toEqual([]);
    expect(graph.notWalked).toBe(0);
    expect(graph.nodes.find((n) => n.kind === 'hop')!.hop).toEqual({ id: 'hop_1', to: 'triage', cause: 'entry' });
    expect(graph.nodes.find((n) => n.spanId === id('c3'))!.attributes).toEqual({
      'gen_ai.operation.name': 'chat', 'footprint.agent': 'tech', 'footprint.route': 'desk>tech', 'footprint.skill': 'triage', 'footprint.iteration': 3,
      'gen_ai.request.model': 'claude-sonnet-4-5', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 40, 'footprint.cost.usd': 0.004992, 'footprint.llm.call_id': 'call_3',
    });
    expect(isDag(graph)).toBe(true);
  });

  it('--run, --trace (a prefix) and --span choose where the walk starts', async () => {
    const byRun = await whyCommand({ path: dir, run: 'run_1', json: true });
    expect((JSON.parse(byRun.lines.join('\n')) as WhyGraph).root).toBe(id('c3'));
    const byTrace = await whyCommand({ path: dir, trace: traceId().slice(0, 8), json: true });
    expect((JSON.parse(byTrace.lines.join('\n')) as WhyGraph).root).toBe(id('c3'));
    const fromSpan = await whyCommand({ path: dir, span: id('t2'), json: false });
    expect(fromSpan.lines.map(plainLine)).toEqual([
      `why: run run_1, trace ${traceId()} from ${dir}: span ${id('t2')} ← what its input came from`,
      T2,
      `└─ generation CAUSED_BY_GENERATION ← ${C2}`,
      `   ├─ skill #1 (30 tok) INFORMED_BY ← ${HOP}`,
      `   ├─ model_output #1 (8 tok) INFORMED_BY ← ${C1}`,
      `   │  ├─ instructions #0 (20 tok) ← invoke_agent Tech support`,
      `   │  ├─ run_input #2 (10 tok) ← the run's input: invoke_workflow desk  run run_1`,
      `   │  └─ also, shown above: skill #1 ← hop → triage`,
      `   ├─ tool_result #2 (12 tok) INFORMED_BY ← ${T1}`,
      `   │  └─ also, shown above: generation ← chat claude-haiku-4-5 (iteration 1)`,
      `   └─ also, shown above: instructions #0 ← invoke_agent Tech support, run_input #2 ← the run's input`,
    ]);
  });

  it('the command line: exit 0 and the tree on stdout; an unknown run id is one line on stderr, exit 1', async () => {
    const ok = await cli(['why', '--run', 'run_1'], { cwd: temp.dir });
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout.split('\n')[1]).toBe(C3);
    const missing = await cli(['why', dir, '--run', 'run_nope'], { cwd: temp.dir });
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([1, '', `footprint-otel: no run with run id run_nope in ${dir} (its root span's footprint.run.id)\n`]);
  }, 60_000);
});

/**
 * A run paused after its call c1 and resumed into c2, which is sent the run's input (as `restored`:
 * run_input, or checkpoint when the resume restores it) and c1's answer from the checkpoint.
 */
function writeResumed(into: string, restored: 'run_input' | 'checkpoint') {
  const run = { [semconv.ATTR_FOOTPRINT_RUN_ID]: 'run_r', [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent' };
  return writeLineage(into, [
    { name: 'paused', title: 'invoke_agent Refunds', attributes: run },
    { name: 'c1', title: 'chat m1', parent: 'paused', attributes: chat({ callId: 'call_1', model: 'm1', agent: 'refunds', iteration: 1, input: 10, output: 2, cost: 0.001, parts: [['run_input', 'run_r', 4]] }) },
    { name: 'resumed', title: 'invoke_agent Refunds', parent: 'paused', attributes: { ...run, [semconv.ATTR_FOOTPRINT_RESUMED]: true } },
    {
      name: 'c2', title: 'chat m1', parent: 'resumed',
      attributes: chat({ callId: 'call_2', model: 'm1', agent: 'refunds', iteration: 2, input: 20, output: 3, cost: 0.002, parts: [[restored, 'run_r', 4], ['checkpoint', 'call_1', 2]] }),
      links: [{ to: 'c1', type: 'INFORMED_BY', origin: 'checkpoint', parts: [1], tokens: 2, producer: 'call_1' }],
    },
  ], { answer: 'c2', answerOn: 'resumed' });
}

describe('why on a paused and resumed run', () => {
  const temp = tempDir('why-resumed');
  const dir = path.join(temp.dir, 'telemetry');
  afterAll(() => temp.remove());


  it('starts at the chat span the resumed segment names as its answer, not the trace\'s last chat span to end', async () => {
    // Spans end in reverse order of creation: c1 (before the pause) is the last chat span to end.
    const written = await writeResumed(dir, 'run_input');
    const graph = JSON.parse((await whyCommand({ path: dir, run: 'run_r', json: true })).lines.join('\n')) as WhyGraph;
    expect([graph.root, graph.edges.map((e) => [e.from, e.to, e.origin])]).toEqual([
      written.ids.get('c2'),
      [
        [written.ids.get('c2'), written.ids.get('c1'), 'checkpoint'],
        [written.ids.get('c2'), written.ids.get('resumed'), 'run_input'],
        [written.ids.get('c1'), written.ids.get('paused'), 'run_input'],
      ],
    ]);
  });
});

describe('why on parts whose producer is the chat span\'s ancestor, not a link (what the runtime writes)', () => {
  const temp = tempDir('why-ancestor-parts');
  afterAll(() => temp.remove());

  it('full detail: the skill part of a hop of the call\'s own iteration is the parent CallLLM span\'s hop (no link: it is the parent)', async () => {
    const dir = path.join(temp.dir, 'full');
    const written = await writeLineage(dir, [
      { name: 'run', title: 'invoke_workflow desk', attributes: RUN },
      { name: 'agent', title: 'invoke_agent Tech support', parent: 'run', attributes: AGENT },
      { name: 'call1', title: 'CallLLM', parent: 'agent', hop: { id: 'hop_1', to: 'triage', cause: 'entry' } },
      { name: 'c1', title: 'chat claude-haiku-4-5', parent: 'call1', attributes: chat({ callId: 'call_1', model: 'claude-haiku-4-5', agent: 'tech', skill: 'triage', iteration: 1, input: 60, output: 8, cost: 0.0001, parts: PARTS_1 }) },
    ], { answer: 'c1' });
    const result = await whyCommand({ path: dir, json: false });
    expect(result.lines.map(plainLine)).toEqual([
      `why: run run_1, trace ${written.traceIds.get('run')} from ${dir}: the answer ← what its input came from`,
      C1,
      `├─ instructions #0 (20 tok) ← invoke_agent Tech support`,
      `├─ skill #1 (30 tok) ← ${HOP}`,
      `└─ run_input #2 (10 tok) ← the run's input: invoke_workflow desk  run run_1`,
    ]);
    const graph = JSON.parse((await whyCommand({ path: dir, json: true })).lines.join('\n')) as WhyGraph;
    expect(graph.edges.find((e) => e.origin === 'skill')).toEqual({ from: written.ids.get('c1'), to: written.ids.get('call1'), linkType: null, origin: 'skill', partIndexes: [1], tokens: 30 });
    expect(graph.nodes.find((n) => n.spanId === written.ids.get('call1'))!.hop).toEqual({ id: 'hop_1', to: 'triage', cause: 'entry' });
  });

  it('semantic detail: the skill part is the agent span\'s hop event (the stand-in, the chat span\'s parent)', async () => {
    const dir = path.join(temp.dir, 'semantic');
    const written = await writeLineage(dir, [
      { name: 'run', title: 'invoke_workflow desk', attributes: RUN },
      { name: 'agent', title: 'invoke_agent Tech support', parent: 'run', attributes: AGENT, hop: { id: 'hop_1', to: 'triage', cause: 'entry' } },
      { name: 'c1', title: 'chat claude-haiku-4-5', parent: 'agent', attributes: chat({ callId: 'call_1', model: 'claude-haiku-4-5', agent: 'tech', skill: 'triage', iteration: 1, input: 60, output: 8, cost: 0.0001, parts: PARTS_1 }) },
    ], { answer: 'c1' });
    const graph = JSON.parse((await whyCommand({ path: dir, json: true })).lines.join('\n')) as WhyGraph;
    expect(graph.edges.map((e) => [e.to, e.origin, e.partIndexes, e.tokens])).toEqual([
      [written.ids.get('agent'), 'instructions', [0], 20],
      [written.ids.get('agent'), 'skill', [1], 30],
      [written.ids.get('run'), 'run_input', [2], 10],
    ]);
  });

  it('a resumed run: the run\'s input restored from the checkpoint (origin checkpoint, producer the run) is the run\'s span', async () => {
    const dir = path.join(temp.dir, 'resumed');
    const written = await writeResumed(dir, 'checkpoint');
    const graph = JSON.parse((await whyCommand({ path: dir, run: 'run_r', json: true })).lines.join('\n')) as WhyGraph;
    expect(graph.edges.filter((e) => e.from === written.ids.get('c2')).map((e) => [e.to, e.linkType, e.origin, e.partIndexes, e.tokens])).toEqual([
      [written.ids.get('c1'), 'INFORMED_BY', 'checkpoint', [1], 2],
      [written.ids.get('resumed'), null, 'checkpoint', [0], 4],
    ]);
  });
});

describe('why on a run of one agent (its run span is its agent span)', () => {
  const temp = tempDir('why-agent-run');
  afterAll(() => temp.remove());

  it('names the run span the producer of the instructions and the tool list, not of the run\'s input', async () => {
    const dir = path.join(temp.dir, 'telemetry');
    const run = { [semconv.ATTR_FOOTPRINT_RUN_ID]: 'run_a', [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent' };
    const written = await writeLineage(dir, [
      { name: 'run', title: 'invoke_agent support', attributes: run },
      { name: 'c1', title: 'chat m1', parent: 'run', attributes: chat({ callId: 'call_1', model: 'm1', agent: 'support', iteration: 1, input: 10, output: 2, cost: 0.001, parts: [['instructions', 'support', 5], ['run_input', 'run_a', 6], ['tool_definitions', 'support', 35]] }) },
    ], { answer: 'c1' });
    const result = await whyCommand({ path: dir, json: false });
    expect(result.lines.map(plainLine)).toEqual([
      `why: run run_a, trace ${written.traceIds.get('run')} from ${dir}: the answer ← what its input came from`,
      'chat m1  member support  route desk>support  iteration 1  model m1  tokens 10 in / 2 out  $0.001000',
      '├─ instructions #0 (5 tok) ← invoke_agent support  run run_a',
      "└─ also, shown above: run_input #1 ← the run's input, tool_definitions #2 ← invoke_agent support",
    ]);
  });
});

function byEdge(a: { from: string; to: string; origin: string }, b: { from: string; to: string; origin: string }): number {
  return `${a.from}${a.to}${a.origin}`.localeCompare(`${b.from}${b.to}${b.origin}`);
}
