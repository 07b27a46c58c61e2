/**
 * The semconv switch reaches the span writers (src/otel/encoding/semconvMode.ts: spellingIn): the
 * span events and the run-span attribute issue #33 renamed are written under their current names by
 * default, under their v1.41 names in 'v1.41' (payload keys follow the event's name), and under each
 * once in 'both'; the turn outcome's value `ok` is `answered` in 'v1.41'; the next-step decision is on the CallLLM span in every mode (no stage span of its own, `Route` in 'v1.41' before); OTEL_SEMCONV_STABILITY_OPT_IN chooses when no option does. Real SDK, scripted model.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Agent, defineSkill, registerInstrument, scripted, skillGraph, type ScriptedReply } from '../../src/index.js';
import { secondSpellingIn, spellingIn, type SemconvMode } from '../../src/otel/encoding/index.js';
import { tracingInstrument, type TracingOptions } from '../../src/otel/index.js';
import { startSdk } from '../support/sdk.js';

const sdk = startSdk({ tracing: false });
afterAll(() => sdk.shutdown());
let unregister = () => {};
afterEach(() => {
  unregister();
  sdk.reset();
});

/** Triage and billing picked in turn: four hops fill the ping-pong window of 4 (a labelled trip), then an answer. */
async function pingPongRun(options: TracingOptions): Promise<ReadableSpan[]> {
  unregister = registerInstrument(tracingInstrument(options));
  const triage = defineSkill({ id: 'triage', description: 'Sorts requests', body: 'Sort it.' });
  const billing = defineSkill({ id: 'billing', description: 'Money', body: 'Bill it.' });
  const graph = skillGraph().entry(triage).edge(triage, billing).edge(billing, triage).build();
  const pick = (id: string): ScriptedReply => ({ toolCalls: [{ name: 'read_skill', args: { id } }] });
  const provider = scripted({ replies: [pick('billing'), pick('triage'), pick('billing'), pick('triage'), 'Done.'] });
  const desk = Agent.create({ provider, model: 'small', id: 'desk', name: 'Desk' }).skillGraph(graph, { pingPongWindow: 4 }).build();
  expect((await desk.run('help me')).text).toBe('Done.');
  return sdk.spans();
}

const RENAMED = /^footprint\.(skill\.hop|loop_guard\.trip|agent\.next_step|route\.hop|route\.trip|agent\.route_decided)$/;

/**
 * Where the agent's next-step decisions are written, by span name (full detail), with any span of the
 * former next-step stage (`NextStep`, `Route` in the v1.41 mode): CallLLM decides, in every mode.
 */
function stageSpans(spans: ReadableSpan[]): Record<string, number> {
  const decision = /^footprint\.agent\.(next_step|route_decided)$/;
  const counts: Record<string, number> = {};
  for (const span of spans) {
    if (span.name === 'NextStep' || span.name === 'Route' || span.events.some((e) => decision.test(e.name))) counts[span.name] = (counts[span.name] ?? 0) + 1;
  }
  return counts;
}

/** How often each renamed span event was written, by name. */
function renamedEvents(spans: ReadableSpan[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of spans.flatMap((s) => s.events)) if (RENAMED.test(event.name)) counts[event.name] = (counts[event.name] ?? 0) + 1;
  return counts;
}

/** Every trip event's name and attribute keys, its payload's written `<event>.field` when under the event's own name. */
function tripKeys(spans: ReadableSpan[]): Array<[string, string[]]> {
  return spans.flatMap((s) =>
    s.events
      .filter((e) => /trip$/.test(e.name))
      .map((e): [string, string[]] => [e.name, Object.keys(e.attributes ?? {}).map((k) => (k.startsWith(`${e.name}.`) ? `<event>${k.slice(e.name.length)}` : k)).sort()]),
  );
}

const TRIP_KEYS = [
  '<event>.action',
  '<event>.agent_id',
  '<event>.cost_since_loop_usd',
  '<event>.iteration',
  '<event>.kind',
  '<event>.skills',
  '<event>.tokens_since_loop',
  '<event>.turn_id',
  '<event>.window',
  'footprint.member.id',
  'footprint.member.kind',
];

/** The run span's skill path under either key, and the turn's outcome on the span and on its turn_end event. */
function pathAttributes(spans: ReadableSpan[]): Record<string, unknown> {
  const run = spans.find((s) => s.name === 'invoke_agent Desk')!;
  const turnEnd = spans.flatMap((s) => s.events).find((e) => e.name === 'footprint.agent.turn_end')!;
  return {
    ...Object.fromEntries(Object.entries(run.attributes).filter(([key]) => key.endsWith('.path') || key === 'footprint.turn.outcome')),
    'footprint.agent.turn_end.outcome': turnEnd.attributes!['footprint.agent.turn_end.outcome'],
  };
}

const PATH = 'triage>billing>triage>billing>triage';
const CURRENT = {
  events: { 'footprint.agent.next_step': 5, 'footprint.loop_guard.trip': 1, 'footprint.skill.hop': 5 },
  tripKeys: [['footprint.loop_guard.trip', TRIP_KEYS]] as Array<[string, string[]]>,
  path: { 'footprint.skill.path': PATH, 'footprint.turn.outcome': 'ok', 'footprint.agent.turn_end.outcome': 'ok' },
  stages: { CallLLM: 5 },
};
const V1_41 = {
  events: { 'footprint.agent.route_decided': 5, 'footprint.route.trip': 1, 'footprint.route.hop': 5 },
  tripKeys: [['footprint.route.trip', TRIP_KEYS]] as Array<[string, string[]]>,
  path: { 'footprint.route.path': PATH, 'footprint.turn.outcome': 'answered', 'footprint.agent.turn_end.outcome': 'answered' },
  stages: { CallLLM: 5 },
};

describe('the semconv switch on spans', () => {
  it.each<[SemconvMode, [string, string | undefined]]>([
    ['current', ['footprint.skill.path', undefined]],
    ['v1.41', ['footprint.route.path', undefined]],
    ['both', ['footprint.skill.path', 'footprint.route.path']],
  ])('%s: a renamed key is spelled %j; a key never renamed is itself', (mode, spellings) => {
    expect([spellingIn(mode, 'footprint.skill.path'), secondSpellingIn(mode, 'footprint.skill.path')]).toEqual(spellings);
    expect([spellingIn(mode, 'footprint.skill.entered'), secondSpellingIn(mode, 'footprint.skill.entered')]).toEqual(['footprint.skill.entered', undefined]);
  });

  it('current (the default): the new names only', async () => {
    const spans = await pingPongRun({});
    expect({ events: renamedEvents(spans), tripKeys: tripKeys(spans), path: pathAttributes(spans), stages: stageSpans(spans) }).toEqual(CURRENT);
  });

  it("'v1.41': the old names only, the trip's payload keys under its old name", async () => {
    const spans = await pingPongRun({ semconv: 'v1.41' });
    expect({ events: renamedEvents(spans), tripKeys: tripKeys(spans), path: pathAttributes(spans), stages: stageSpans(spans) }).toEqual(V1_41);
  });

  it("'both': each renamed event and attribute once under each name", async () => {
    const spans = await pingPongRun({ semconv: 'both' });
    expect({ events: renamedEvents(spans), tripKeys: tripKeys(spans), path: pathAttributes(spans), stages: stageSpans(spans) }).toEqual({
      events: { ...CURRENT.events, ...V1_41.events },
      tripKeys: [...CURRENT.tripKeys, ...V1_41.tripKeys],
      // A value has one spelling: the both mode writes the current one.
      path: { ...V1_41.path, ...CURRENT.path },
      stages: CURRENT.stages,
    });
  });

  it('OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_v1.41 chooses the old names when no option does; an option wins over it', async () => {
    process.env.OTEL_SEMCONV_STABILITY_OPT_IN = 'gen_ai_v1.41';
    try {
      const fromEnv = await pingPongRun({});
      expect({ events: renamedEvents(fromEnv), tripKeys: tripKeys(fromEnv), path: pathAttributes(fromEnv), stages: stageSpans(fromEnv) }).toEqual(V1_41);
      unregister();
      sdk.reset();
      const explicit = await pingPongRun({ semconv: 'current' });
      expect({ events: renamedEvents(explicit), tripKeys: tripKeys(explicit), path: pathAttributes(explicit), stages: stageSpans(explicit) }).toEqual(CURRENT);
    } finally {
      delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
    }
  });
});

/** What the conventions' move (issue #35) changed on the ping-pong run's spans, as `mode` writes them. */
function conventionsView(spans: ReadableSpan[]): Record<string, unknown> {
  const run = spans.find((s) => s.name === 'invoke_agent Desk')!;
  const reads = spans.filter((s) => s.attributes['gen_ai.tool.name'] === 'read_skill');
  return {
    schemaUrl: run.instrumentationScope.schemaUrl,
    agent: Object.fromEntries(['gen_ai.agent.id', 'gen_ai.provider.name'].map((key) => [key, run.attributes[key]])),
    reads: reads.map((r) => [r.name, r.attributes['gen_ai.skill.name']]),
  };
}

const SKILLS = ['billing', 'triage', 'billing', 'triage'];
const CURRENT_MODEL = {
  schemaUrl: 'https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev',
  agent: { 'gen_ai.agent.id': undefined, 'gen_ai.provider.name': undefined },
  reads: SKILLS.map((skill) => [`execute_tool read_skill ${skill}`, skill]),
};
const V1_41_MODEL = {
  schemaUrl: 'https://opentelemetry.io/schemas/1.41.0',
  agent: { 'gen_ai.agent.id': 'desk', 'gen_ai.provider.name': 'scripted' },
  reads: SKILLS.map(() => ['execute_tool read_skill', undefined]),
};

describe("the semconv switch on the conventions' own moves (semantic-conventions-genai)", () => {
  it('current: the current model: schema URL, no agent id or provider on the agent span, read_skill as a skill load', async () => {
    expect(conventionsView(await pingPongRun({}))).toEqual(CURRENT_MODEL);
  });

  it("'v1.41': v1.41's schema URL, the agent's id and provider, read_skill as a plain tool", async () => {
    expect(conventionsView(await pingPongRun({ semconv: 'v1.41' }))).toEqual(V1_41_MODEL);
  });

  it("'both': the current schema URL and span names, with every attribute of both (each once)", async () => {
    expect(conventionsView(await pingPongRun({ semconv: 'both' }))).toEqual({ ...CURRENT_MODEL, agent: V1_41_MODEL.agent });
  });
});
