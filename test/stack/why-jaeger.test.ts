// Lineage links through the real stack: `footprint-otel demo` over OTLP into the collector, whose tail
// sampler keeps every tripped run, into Jaeger v2. A tripped run's answer is read back through
// Jaeger's query API: the run span's `answer` link (which Jaeger turns into the run span's parent),
// and that chat span's links with every attribute (the OTLP-shaped /api/v3 keeps them; the classic
// /api/traces shows the same links as FOLLOWS_FROM references). Then `footprint-otel why --jaeger` walks that run from Jaeger, by run id, to the
// refused read_skill calls and the hop.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { semconv } from '../../src/index.js';
import { spansOfTraceData, type FileSpan } from '../../src/telemetry/index.js';
import type { WhyGraph } from '../../src/cli/whyGraph.js';
import { describeWithBackends, waitFor } from '../support/backends.js';
import { cli, tempDir } from '../support/cli.js';
import { runDemo, type DemoRun } from '../support/stack/clients.js';
import { startStack, type RunningStack } from '../support/stack/start-stack.js';

const SERVICE = 'footprint-stack-why';
const ORIGINS = new Set(['skill', 'handoff', 'model_output', 'tool_result']);

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

  it("reads a tripped run's answer links back through Jaeger's query API, every attribute kept", async () => {
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
    // Jaeger's span model takes a root's first same-trace FOLLOWS_FROM reference as its parent: the run
    // span's answer link comes back as its parent (the answer's chat span), no longer among its links
    const root = spans.find((s) => s.attributes[semconv.ATTR_FOOTPRINT_RUN_ID] !== undefined && s.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME] === 'invoke_workflow')!;
    expect(root.links).toEqual([]);
    const answer = byId.get(root.parentSpanId!)!;
    expect([answer.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME], answer.traceId]).toEqual(['chat', traceId]);
    // each link: its type, origin, parts, sizes and producer, to a span of this trace
    for (const link of answer.links) {
      expect(link.traceId).toBe(traceId);
      expect(byId.has(link.spanId)).toBe(true);
      if (link.attributes[semconv.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE] === 'RETRY_OF') {
        expect(link.attributes).toEqual({ [semconv.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE]: 'RETRY_OF' });
        continue;
      }
      expect(Object.keys(link.attributes).sort()).toEqual(
        [semconv.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE, semconv.ATTR_FOOTPRINT_LINEAGE_ORIGIN, semconv.ATTR_FOOTPRINT_LINEAGE_SLOT, semconv.ATTR_FOOTPRINT_LINEAGE_PART_INDEXES,
          semconv.ATTR_FOOTPRINT_LINEAGE_CHARS, semconv.ATTR_FOOTPRINT_LINEAGE_TOKENS, semconv.ATTR_FOOTPRINT_LINEAGE_PRODUCER].sort(),
      );
      expect(link.attributes[semconv.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE]).toBe('INFORMED_BY');
      expect(ORIGINS.has(String(link.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ORIGIN]))).toBe(true);
    }
    // the tool results it read are the trace's refused read_skill calls, each linked to the chat span that asked for it
    const refused = spans.filter((s) => s.name === 'execute_tool read_skill' && s.status.code === 2).map((s) => s.spanId).sort();
    const toolResults = answer.links.filter((l) => l.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ORIGIN] === 'tool_result').map((l) => l.spanId).sort();
    expect(toolResults).toEqual(refused);
    for (const id of refused) {
      expect(byId.get(id)!.links.map((l) => [l.attributes[semconv.ATTR_GEN_AI_ATTRIBUTION_LINK_TYPE], byId.get(l.spanId)?.attributes[semconv.ATTR_GEN_AI_OPERATION_NAME]])).toEqual([['CAUSED_BY_GENERATION', 'chat']]);
    }
    // the skill link leads to the stage span that emitted the hop into the answer's skill
    const skill = answer.links.filter((l) => l.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_ORIGIN] === 'skill');
    expect(skill).toHaveLength(1);
    const hops = byId.get(skill[0]!.spanId)!.events.filter((e) => e.name === 'footprint.skill.hop');
    expect(hops.map((e) => [e.attributes['footprint.skill.hop.to'], e.attributes['footprint.skill.hop.hop_id']])).toContainEqual([answer.attributes[semconv.ATTR_FOOTPRINT_SKILL], skill[0]!.attributes[semconv.ATTR_FOOTPRINT_LINEAGE_PRODUCER]]);
    // the classic API shows the same links as FOLLOWS_FROM references
    const classic = (await stack.jaeger.trace(traceId))!.spans.find((s) => s.spanID === answer.spanId)!;
    expect(classic.references.filter((r) => r.refType === 'FOLLOWS_FROM').map((r) => r.spanID).sort()).toEqual(answer.links.map((l) => l.spanId).sort());
  }, 150_000);

  it('why --jaeger --run walks the tripped run from Jaeger to its refused read_skill calls and the hop', async () => {
    const [found] = await stack.jaeger.search(SERVICE, { 'footprint.trip.kinds': 'rejected_cap' });
    const trace = await stack.jaeger.get<{ result: unknown }>(`/api/v3/traces/${found!.traceID}`);
    const spans: FileSpan[] = spansOfTraceData(trace.result, () => undefined);
    const runId = String(spans.find((s) => s.parentSpanId === undefined)!.attributes[semconv.ATTR_FOOTPRINT_RUN_ID]);
    const result = await cli(['why', '--jaeger', stack.jaeger.url, '--run', runId, '--json'], { cwd: temp.dir });
    expect([result.code, result.stderr]).toEqual([0, '']);
    const graph = JSON.parse(result.stdout) as WhyGraph;
    expect([graph.traceId, graph.runId]).toEqual([found!.traceID, runId]);
    const refused = spans.filter((s) => s.name === 'execute_tool read_skill' && s.status.code === 2).map((s) => s.spanId).sort();
    expect(graph.nodes.filter((n) => n.name === 'execute_tool read_skill').map((n) => n.spanId).sort()).toEqual(refused);
    expect(graph.nodes.filter((n) => n.kind === 'hop')).toHaveLength(1);
    expect(graph.nodes.filter((n) => n.missing)).toEqual([]);
    const tree = await cli(['why', '--jaeger', stack.jaeger.url, '--trace', found!.traceID], { cwd: temp.dir });
    expect(tree.code).toBe(0);
    expect(tree.stdout.split('\n')[0]).toBe(`why: run ${runId}, trace ${found!.traceID} from ${stack.jaeger.url}: the answer ← what its input came from`);
  }, 120_000);
});
