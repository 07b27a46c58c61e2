/**
 * `why` on hostile files: control characters in names and attributes (escaped in the tree, valid
 * JSON without them in --json), a 100 MB line that is not JSON beside a good run (skipped and
 * reported, the run still answered), two chat spans that link each other (a cycle, cut and shown),
 * one span with 10,000 links (bounded), and a chain of 10,000 chat spans each reading the one before
 * (no recursion, the node and line bounds).
 */
import { appendFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Attributes } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { plainLine } from '../../src/cli/terminal.js';
import { whyCommand } from '../../src/cli/why.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { MAX_LINKS_PER_SPAN } from '../../src/cli/whyProducers.js';
import { MAX_NODES } from '../../src/cli/whySlice.js';
import { MAX_TREE_DEPTH, MAX_TREE_LINES } from '../../src/cli/whyTree.js';
import { semconv } from '../../src/index.js';
import { cli, tempDir } from '../support/cli.js';
import { chat, isDag, writeLineage, type SpanSpec } from './whyFixtures.js';

const run = (runId: string): SpanSpec => ({ name: 'run', title: 'invoke_workflow desk', attributes: { [semconv.ATTR_FOOTPRINT_RUN_ID]: runId } });
const answer = (callId: string, extra: Attributes = {}): Attributes => ({ ...chat({ callId, model: 'm', agent: 'tech', iteration: 1, input: 10, output: 2, cost: 0.001, parts: [] }), ...extra });
const ANSWER = 'chat m  member tech  route desk>tech  iteration 1  model m  tokens 10 in / 2 out  $0.001000';

describe('why on hostile files', () => {
  const temp = tempDir('why-hostile');
  afterAll(() => temp.remove());
  let n = 0;
  const folder = () => path.join(temp.dir, `case-${++n}`);
  const graphOf = async (dir: string) => JSON.parse((await whyCommand({ path: dir, json: true })).lines.join('\n')) as WhyGraph;

  it('control characters in names and attributes reach the terminal escaped, and --json stays JSON without them', async () => {
    const dir = folder();
    const hostile = 'evil\u001b[2J\u001b]0;owned\u0007\r\n\u202e\u009b';
    await writeLineage(dir, [
      run('run_h'),
      { name: 'tool', title: `execute_tool ${hostile}`, parent: 'run', attributes: { [semconv.ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool', [semconv.ATTR_FOOTPRINT_AGENT]: hostile } },
      { name: 'answer', title: 'chat m', parent: 'run', attributes: answer('call_h'), links: [{ to: 'tool', type: 'INFORMED_BY', origin: hostile, parts: [0] }] },
    ], { answer: 'answer' });
    const tree = await cli(['why', dir], { cwd: temp.dir });
    expect([tree.code, tree.stderr]).toEqual([0, '']);
    const escaped = 'evil\\x1b[2J\\x1b]0;owned\\x07\\r\\n\\u202e\\x9b';
    expect(tree.stdout.split('\n').slice(1)).toEqual([ANSWER, `└─ ${escaped} #0 INFORMED_BY ← execute_tool ${escaped}  member ${escaped}`, '']);
    const json = await cli(['why', dir, '--json'], { cwd: temp.dir });
    expect(json.code).toBe(0);
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(json.stdout)).toBe(false);
    const graph = JSON.parse(json.stdout) as WhyGraph;
    expect(graph.nodes[1]!.name).toBe(`execute_tool ${hostile}`);
    expect(graph.edges[0]!.origin).toBe(hostile);
  }, 60_000);

  it('a 100 MB line that is not JSON beside a good run: skipped, reported once with file and line, the run answered', async () => {
    const dir = folder();
    await writeLineage(dir, [run('run_big'), { name: 'answer', title: 'chat m', parent: 'run', attributes: answer('call_big') }], { answer: 'answer' });
    const file = path.join(dir, readdirSync(dir).find((name) => name.startsWith('traces-'))!);
    appendFileSync(file, `{"resourceSpans":[${'x'.repeat(100 * 1024 * 1024)}\n`);
    const result = await whyCommand({ path: dir, json: false });
    expect(result.lines.map(plainLine).slice(1)).toEqual([ANSWER]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(new RegExp(`^footprint-otel: 1 line\\(s\\) that are not JSON skipped; first at ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not OTLP JSON: `));
  }, 60_000);

  it('two chat spans that link each other: the cycle is cut, named in the tree and in --json, the rest a DAG', async () => {
    const dir = folder();
    const w = await writeLineage(dir, [
      run('run_c'),
      { name: 'a', title: 'chat m', parent: 'run', attributes: answer('call_a'), laterLinks: [{ to: 'b', type: 'INFORMED_BY', origin: 'model_output', parts: [1] }] },
      { name: 'b', title: 'chat m', parent: 'run', attributes: answer('call_b'), links: [{ to: 'a', type: 'INFORMED_BY', origin: 'model_output', parts: [0] }] },
      { name: 'answer', title: 'chat m', parent: 'run', attributes: answer('call_z'), links: [{ to: 'b', type: 'INFORMED_BY', origin: 'model_output', parts: [0] }] },
    ], { answer: 'answer' });
    const id = (name: string) => w.ids.get(name)!;
    const graph = await graphOf(dir);
    expect(graph.cycles).toEqual([{ from: id('a'), to: id('b') }]);
    expect(graph.edges.map((e) => [e.from, e.to])).toEqual([[id('answer'), id('b')], [id('b'), id('a')]]);
    expect(isDag(graph)).toBe(true);
    const lines = (await whyCommand({ path: dir, json: false })).lines.map(plainLine);
    expect(lines.slice(1)).toEqual([
      ANSWER,
      `└─ model_output #0 INFORMED_BY ← ${ANSWER}`,
      `   └─ model_output #0 INFORMED_BY ← ${ANSWER}`,
      `         [cycle: a link back to span ${id('b')}, not followed]`,
    ]);
  });

  it(`a span with 10,000 links: ${MAX_LINKS_PER_SPAN} followed, the rest counted`, async () => {
    const dir = folder();
    const foreign = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { traceId: 'f'.repeat(32), spanId: i.toString(16).padStart(16, '0'), traceFlags: 1 }]));
    await writeLineage(dir, [
      run('run_l'),
      { name: 'answer', title: 'chat m', parent: 'run', attributes: answer('call_l'), links: Object.keys(foreign).map((to, i) => ({ to, type: 'INFORMED_BY' as const, origin: 'tool_result', parts: [i] })) },
    ], { answer: 'answer', foreign, linkLimit: 20_000 });
    const graph = await graphOf(dir);
    expect(graph.nodes[0]!.linksNotFollowed).toBe(10_000 - MAX_LINKS_PER_SPAN);
    expect(graph.edges).toHaveLength(MAX_LINKS_PER_SPAN);
    expect(new Set(graph.nodes.slice(1).map((node) => node.missing))).toEqual(new Set(['trace_absent']));
    const lines = (await whyCommand({ path: dir, json: false })).lines.map(plainLine);
    expect(lines[1]).toBe(`${ANSWER}  [${10_000 - MAX_LINKS_PER_SPAN} links not followed]`);
    expect(lines).toHaveLength(2 + MAX_LINKS_PER_SPAN);
  });

  it(`a chain of 10,000 chat spans: at most ${MAX_NODES} expanded, ${MAX_TREE_LINES} lines drawn, indentation capped`, async () => {
    const dir = folder();
    const chain: SpanSpec[] = [run('run_deep')];
    for (let i = 0; i < 10_000; i++) {
      chain.push({ name: `c${i}`, title: 'chat m', parent: 'run', attributes: answer(`call_${i}`), links: i === 0 ? [] : [{ to: `c${i - 1}`, type: 'INFORMED_BY', origin: 'model_output', parts: [0] }] });
    }
    await writeLineage(dir, chain, { answer: 'c9999' });
    const graph = await graphOf(dir);
    expect([graph.nodes.length, graph.edges.length, graph.notWalked]).toEqual([MAX_NODES + 1, MAX_NODES, 1]);
    expect(isDag(graph)).toBe(true);
    const lines = (await whyCommand({ path: dir, json: false })).lines.map(plainLine);
    expect(lines).toHaveLength(1 + MAX_TREE_LINES + 2);
    expect(lines.at(-2)).toBe(`(the tree stops at ${MAX_TREE_LINES} lines; --json gives the whole slice)`);
    expect(lines.at(-1)).toBe(`(1 span(s) not walked further: a slice expands at most its node bound)`);
    expect(lines[MAX_TREE_LINES]!.startsWith(`${'   '.repeat(MAX_TREE_DEPTH - 1)}└─ model_output #0`)).toBe(true);
  }, 60_000);
});
