// Lineage links through the real stack: `footprint-otel demo` over OTLP into the collector, whose tail
// sampler keeps every tripped run, into Jaeger v2. A tripped run's answer is read back through
// Jaeger's query API (/api/v3, and the classic /api/traces as FOLLOWS_FROM references): the run
// span, still the trace's one root (it names its answer's chat span by attributes, not a link, which
// Jaeger would make its parent), and that chat span's links, one per producer, to the refused
// read_skill calls and the hop's stage span. Jaeger's store drops a
// link's attributes and keeps an array attribute as JSON text; the part table says what each link was. Then `footprint-otel why --jaeger` walks that run from Jaeger, by run id, to the
// refused read_skill calls and the hop.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { semconv } from '../../src/index.js';
import { spansOfTraceData, type FileSpan } from '../../src/telemetry/index.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { partTableOf } from '../../src/cli/whyPartTable.js';
import { TraceSpans } from '../../src/cli/whySpans.js';
import { describeWithBackends, waitFor } from '../support/backends.js';
import { cli, tempDir } from '../support/cli.js';
import { runDemo, type DemoRun } from '../support/stack/clients.js';
import { startStack, type RunningStack } from '../support/stack/start-stack.js';

const SERVICE = 'footprint-stack-why';
/** A read_skill call's span (named by the skill it asked for: `execute_tool read_skill refunds`). */
const readSkill = (s: { attributes: Record<string, unknown> }) => s.attributes[semconv.ATTR_GEN_AI_TOOL_NAME] === 'read_skill';

describeWithBackends('lineage links in Jaeger, and why --jaeger', ['otelcol', 'jaeger', 'prometheus', 'alertmanager'], (bins) => {
  let stack: RunningStack;
  let run: DemoRun;
  const temp = tempDir('why-jaeger');

  beforeAll(async () => {
    // the shipped tail-sampling policy: tripped runs are kept, whatever the baseline percentage
    stack = await startStack({ bins: { otelcol: bins.otelcol, jaeger: bins.jaeger, prometheus: bins.prometheus, alertmanager: bins.alertmanager } });
    run = await runDemo({ args: [], env: { OTEL_EXPORTER_OTLP_ENDPOINT: stack.otlpUrl, OTEL_SERVICE_NAME: SERVICE, OTEL_METRIC_EXPORT_INTERVAL: '1000' } });
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    temp.remove();
  });

  it("reads a tripped run's answer and its links back through Jaeger's query API, the run span the trace's one root", async () => {
    expect(run.exitCode).toBe(0);
    expect(run.summary.trips.rejected_cap).toBeGreaterThan(0);
    const { spans, traceId } = await waitFor(
      async () => {
        const [found] = await stack.jaeger.search(SERVICE, { 'footprint.trip.kinds': 'rejected_cap' });
        if (!found) throw new Error(`no rejected_cap trace yet; ${(await stack.jaeger.search(SERVICE)).length} trace(s) of ${SERVICE}`);
        const answer = await stack.jaeger.get<{ result: unknown }>(`/api/v3/traces/${found.traceID}`);
        const spans = spansOfTraceData(answer.result, (reason) => {
          throw new Error(reason);
        });
        // the whole trace: the run span (which ends last) is there
        if (!spans.some((s) => s.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== undefined)) throw new Error(`trace ${found.traceID}: ${spans.length} span(s), no run span yet`);
        return { spans, traceId: found.traceID };
      },
      { what: 'a rejected_cap run, whole, in Jaeger', timeoutMs: 90_000, intervalMs: 2_000 },
    );
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    // Jaeger's store keeps a link as a reference: its span, and no attribute but the reference type.
    // Its span model takes a root's first same-trace FOLLOWS_FROM reference as its parent: the run
    // span has no link (it names its answer by attributes), so it stays the trace's one root
    const FOLLOWS_FROM = { 'opentracing.ref_type': 'follows_from' };
    const root = spans.find((s) => s.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== undefined && s.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME] === 'invoke_workflow')!;
    expect(spans.filter((s) => s.parentSpanId === undefined).map((s) => s.spanId)).toEqual([root.spanId]);
    expect(root.links).toEqual([]);
    const answer = byId.get(String(root.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ANSWER_SPAN_ID]))!;
    expect([answer.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME], answer.traceId, answer.attributes[semconv.ATTR_FOOTPRINT_LLM_CALL_ID]]).toEqual([
      'chat',
      traceId,
      root.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ANSWER_PRODUCER],
    ]);
    // For the record (the closing note and docs/why.md quote it): the answer's links as Jaeger's /api/v3 returns them.
    console.log(`links of ${answer.name} (${answer.spanId}) as Jaeger's /api/v3 returns them:\n${answer.links.map((l) => `  ${JSON.stringify(l)}  -> ${byId.get(l.spanId)?.name}`).join('\n')}`);
    // the answer's links: one per producer, each to a span of this trace, their attributes dropped
    expect(answer.links.map((l) => [l.traceId, byId.has(l.spanId), l.attributes])).toEqual(answer.links.map(() => [traceId, true, FOLLOWS_FROM]));
    // its part table is kept, an array attribute as its JSON text, after the parts it shares with its
    // agent's call before (named by span id): read whole, it names the producers its links point at
    expect(byId.get(String(answer.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_SHARED_SPAN_ID]))?.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME]).toBe('chat');
    const traceSpans = new TraceSpans();
    traceSpans.addTrace(traceId, spans);
    const table = partTableOf(answer, traceSpans)!;
    expect(table.map((part) => part.position)).toEqual(table.map((_, i) => i));
    const producers = table.map((part) => String(part.producer));
    const origins = table.map((part) => String(part.origin));
    expect(origins.filter((o) => o === 'tool_result')).toHaveLength(3);
    // the tool results it read are the trace's refused read_skill calls, each linked to the chat span that asked for it
    const refused = spans.filter((s) => readSkill(s) && s.status.code === 2).map((s) => s.spanId).sort();
    expect(answer.links.map((l) => l.spanId).filter((id) => readSkill(byId.get(id)!)).sort()).toEqual(refused);
    for (const id of refused) {
      const tool = byId.get(id)!;
      expect(tool.links.map((l) => [byId.get(l.spanId)?.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME], l.attributes])).toEqual([['chat', FOLLOWS_FROM]]);
      const asker = byId.get(tool.links[0]!.spanId)!;
      expect(producers).toContain(`${String(asker.attributes[semconv.ATTR_FOOTPRINT_LLM_CALL_ID])}:${String(tool.attributes[semconv.ATTR_GEN_AI_TOOL_CALL_ID])}`);
    }
    // one link leads to the stage span that emitted the hop into the answer's skill, named in the part table
    const hopSpans = answer.links.map((l) => byId.get(l.spanId)!).filter((s) => s.events.some((e) => e.name === 'footprint.skill.hop'));
    expect(hopSpans).toHaveLength(1);
    const hop = hopSpans[0]!.events.find((e) => e.name === 'footprint.skill.hop' && e.attributes['footprint.skill.hop.to'] === answer.attributes[semconv.ATTR_FOOTPRINT_SKILL])!;
    expect(origins[producers.indexOf(String(hop.attributes['footprint.skill.hop.hop_id']))]).toBe('skill');
    // the classic API shows the same links as FOLLOWS_FROM references
    const classic = (await stack.jaeger.trace(traceId))!.spans.find((s) => s.spanID === answer.spanId)!;
    expect(classic.references.filter((r) => r.refType === 'FOLLOWS_FROM').map((r) => r.spanID).sort()).toEqual(answer.links.map((l) => l.spanId).sort());
  }, 150_000);

  it('why --jaeger --run walks the tripped run from Jaeger to its refused read_skill calls and the hop', async () => {
    const [found] = await stack.jaeger.search(SERVICE, { 'footprint.trip.kinds': 'rejected_cap' });
    const trace = await stack.jaeger.get<{ result: unknown }>(`/api/v3/traces/${found!.traceID}`);
    const spans: FileSpan[] = spansOfTraceData(trace.result, () => undefined);
    const runId = String(spans.find((s) => s.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME] === 'invoke_workflow')!.attributes[semconv.ATTR_FOOTPRINT_RUN_ID]);
    const result = await cli(['why', '--jaeger', stack.jaeger.url, '--run', runId, '--json'], { cwd: temp.dir });
    expect([result.code, result.stderr]).toEqual([0, '']);
    const graph = JSON.parse(result.stdout) as WhyGraph;
    expect([graph.traceId, graph.runId]).toEqual([found!.traceID, runId]);
    const refused = spans.filter((s) => readSkill(s) && s.status.code === 2).map((s) => s.spanId).sort();
    expect(graph.nodes.filter(readSkill).map((n) => n.spanId).sort()).toEqual(refused);
    expect(graph.nodes.filter((n) => n.kind === 'hop')).toHaveLength(1);
    expect(graph.nodes.filter((n) => n.missing)).toEqual([]);
    // every link's meaning read off the spans it joins
    expect(graph.edges.filter((e) => e.linkType !== null && !e.inferred)).toEqual([]);
    expect(graph.edges.filter((e) => e.origin === 'unknown')).toEqual([]);
    const tree = await cli(['why', '--jaeger', stack.jaeger.url, '--trace', found!.traceID], { cwd: temp.dir });
    expect(tree.code).toBe(0);
    expect(tree.stdout.split('\n')[0]).toBe(`why: run ${runId}, trace ${found!.traceID} from ${stack.jaeger.url}: the answer ← what its input came from`);
  }, 120_000);
});
