/**
 * `footprint-otel why` on real demo runs, as a user runs it. The demo ends by naming the `why`
 * command for the run it drew (the tripped one); that command walks the wrong answer back to the
 * refused read_skill calls and the hop that set the skill they were refused in. On a 200-run demo,
 * every run's slice is a DAG of spans of the files that ends at the run's input (walked in process
 * over all the traces at once), and `why --json` through the command line gives the same slice.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOf } from '../../src/cli/why.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { sliceFrom } from '../../src/cli/whySlice.js';
import { partTableOf } from '../../src/cli/whyPartTable.js';
import { TraceSpans } from '../../src/cli/whySpans.js';
import { semconv } from '../../src/index.js';
import { readSpans, type FileSpan } from '../../src/telemetry/index.js';
import { cli, tempDir } from '../support/cli.js';
import { isDag } from './whyFixtures.js';

const WHY_LINE = /^why did run (run_\w+) answer that: npx footprint-otel why (\S+) --run (run_\w+)$/;

describe('why on the demo', () => {
  const temp = tempDir('why-demo');
  const dir = path.join(temp.dir, 'telemetry');
  let stdout: string;
  let spans: FileSpan[];
  beforeAll(async () => {
    const demo = await cli([], { cwd: temp.dir });
    expect(demo.code).toBe(0);
    stdout = demo.stdout;
    spans = await readSpans(dir);
  }, 120_000);
  afterAll(() => temp.remove());

  it('ends by naming the why command of the run it drew: the tripped one', () => {
    const lines = stdout.trimEnd().split('\n');
    const match = WHY_LINE.exec(lines.at(-1)!)!;
    expect(match).not.toBeNull();
    expect(match[2]).toBe(dir);
    const drawnTrace = /^Trace ([0-9a-f]{32}): a run that tripped a loop guard/.exec(lines[0]!)![1];
    const root = spans.find((s) => s.traceId === drawnTrace && s.parentSpanId === undefined)!;
    expect([match[1], match[3]]).toEqual([root.attributes[semconv.ATTR_FOOTPRINT_RUN_ID], root.attributes[semconv.ATTR_FOOTPRINT_RUN_ID]]);
  });

  it('why on the tripped run reaches every refused read_skill call and the hop that set the skill', async () => {
    const runId = WHY_LINE.exec(stdout.trimEnd().split('\n').at(-1)!)![1]!;
    const result = await cli(['why', dir, '--run', runId, '--json'], { cwd: temp.dir });
    expect([result.code, result.stderr]).toEqual([0, '']);
    const graph = JSON.parse(result.stdout) as WhyGraph;
    const trace = spans.filter((s) => s.traceId === graph.traceId);
    // a read_skill span is named by the skill it asked for (`execute_tool read_skill refunds`)
    const readSkill = (s: { attributes: Record<string, unknown> }) => s.attributes[semconv.ATTR_GEN_AI_TOOL_NAME] === 'read_skill';
    const refused = trace.filter((s) => readSkill(s) && s.status.code === SpanStatusCode.ERROR).map((s) => s.spanId);
    expect(refused).toHaveLength(3);
    expect(graph.nodes.filter(readSkill).map((n) => [n.spanId, n.status])).toEqual(refused.map((id) => [id, 'error']));
    // each refused call leads back to the chat span that asked for it
    for (const id of refused) {
      const asked = graph.edges.find((e) => e.from === id)!;
      expect([asked.linkType, graph.nodes.find((n) => n.spanId === asked.to)!.kind]).toEqual(['CAUSED_BY_GENERATION', 'chat']);
    }
    const answer = trace.find((s) => s.spanId === graph.root)!;
    const hops = graph.nodes.filter((n) => n.kind === 'hop');
    expect(hops.map((n) => n.hop?.to)).toEqual([answer.attributes[semconv.ATTR_FOOTPRINT_SKILL]]);
    const hopSpan = trace.find((s) => s.spanId === hops[0]!.spanId)!;
    expect(hopSpan.events.filter((e) => e.name === 'footprint.skill.hop').map((e) => e.attributes['footprint.skill.hop.hop_id'])).toContain(hops[0]!.hop!.id);
    const tree = await cli(['why', dir, '--run', runId], { cwd: temp.dir });
    expect(tree.code).toBe(0);
    expect(tree.stdout.split('\n').filter((line) => / ← execute_tool read_skill \w+ {2}member tech {2}iteration \d+ {2}ERROR$/.test(line))).toHaveLength(3);
  }, 60_000);
});

describe('why on every run of a 200-run demo', () => {
  const temp = tempDir('why-200');
  const dir = path.join(temp.dir, 'telemetry');
  let spans: FileSpan[];
  let roots: FileSpan[];
  beforeAll(async () => {
    const demo = await cli(['--runs', '200', '--concurrency', '8'], { cwd: temp.dir });
    expect(demo.code).toBe(0);
    spans = await readSpans(dir);
    roots = spans.filter((s) => s.parentSpanId === undefined && s.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== undefined);
  }, 300_000);
  afterAll(() => temp.remove());

  it('each slice is a DAG of spans of the files, from the answer to the run\'s input', () => {
    expect(roots).toHaveLength(200);
    const all = everyTrace(spans);
    const inFiles = new Set(spans.map((s) => `${s.traceId}/${s.spanId}`));
    for (const root of roots) {
      const { start, runId } = startOf(all, root.traceId, undefined, dir);
      const { graph, unreadTraces } = sliceFrom(start, all, { runId });
      expect(unreadTraces).toEqual([]);
      expect(isDag(graph)).toBe(true);
      expect([graph.cycles, graph.notWalked]).toEqual([[], 0]);
      expect(graph.nodes.filter((n) => !inFiles.has(`${n.traceId}/${n.spanId}`) || n.missing)).toEqual([]);
      // the answer is the chat span the run span names (an attribute: the run span has no link)
      expect([root.links, root.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID]]).toEqual([[], graph.root]);
      // it ends at the run's input: the run span is reached, and every path ends at a run, an agent (its instructions, its tools) or a hop
      expect(graph.edges.some((e) => e.to === root.spanId && e.origin === 'run_input')).toBe(true);
      const producing = new Set(graph.edges.map((e) => e.from));
      expect(graph.nodes.filter((n) => !producing.has(n.spanId) && !['run', 'agent', 'hop'].includes(n.kind))).toEqual([]);
      // every kind of part each model call was sent has an edge (an earlier answer: only the newest is linked, the rest are reached through it)
      for (const node of graph.nodes.filter((n) => n.kind === 'chat')) {
        // the whole table: the parts the span shares with its agent's call before are read off that span, none unknown
        const table = partTableOf(all.get(node.traceId, node.spanId)!, all)!;
        expect(table.map((part) => part.position)).toEqual(table.map((_, i) => i));
        const sent = new Set(table.map((part) => part.origin).filter((origin) => origin !== 'model_output'));
        const drawn = new Set(graph.edges.filter((e) => e.from === node.spanId && !['model_output', 'generation', 'retry'].includes(e.origin)).map((e) => e.origin));
        expect([node.spanId, [...drawn].sort()]).toEqual([node.spanId, [...sent].sort()]);
      }
    }
  });

  it('why --json through the command line gives the same slice (three runs: the first, a middle one, the last)', async () => {
    const all = everyTrace(spans);
    for (const root of [roots[0]!, roots[100]!, roots[199]!]) {
      const runId = String(root.attributes[semconv.ATTR_FOOTPRINT_RUN_ID]);
      const result = await cli(['why', dir, '--run', runId, '--json'], { cwd: temp.dir });
      expect([result.code, result.stderr]).toEqual([0, '']);
      const { start } = startOf(all, root.traceId, undefined, dir);
      expect(JSON.parse(result.stdout)).toEqual(sliceFrom(start, all, { runId }).graph);
    }
  }, 120_000);
});

/** Every trace of the files, read, for the walk. */
function everyTrace(spans: FileSpan[]): TraceSpans {
  const byTrace = new Map<string, FileSpan[]>();
  for (const span of spans) byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
  const all = new TraceSpans();
  for (const [traceId, list] of byTrace) all.addTrace(traceId, list);
  return all;
}
