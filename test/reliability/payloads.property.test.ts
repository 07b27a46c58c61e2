/**
 * Property-based: whatever shape a payload takes — fc.anything() with BigInt, Map, Set, Date, typed
 * and sparse arrays; 100,000-char strings; deep nesting; hand-built cycles; symbols; hostile objects
 * — pushing it through the real pipeline never lets an exception escape into the app and never
 * breaks the trace. Four ways in, each in both detail modes, with content capture on and off:
 *   - a tool returns it (the run answers; the model sees bounded text);
 *   - a model returns it: odd content, odd tool names and call ids (duplicates too), odd arguments,
 *     odd usage, stop reason, response model and id (the run answers, or fails with RunFailedError
 *     only when the arguments cannot be stored at all), and any JSON as read_skill's arguments;
 *   - a plain footprintjs chart traced with traceExecutor $emits it, under catalog event names and
 *     arbitrary ones, from a stage, a subflow stage and a decider;
 *   - a custom Runner's stage $emits it under every catalog event name, so the bridge's semantic layer
 *     and the metrics instrument get payloads that break the catalog's types.
 * The bridge may count failures (tracingFailures()), but each run is one well-formed trace: every
 * span ended, exactly one root, all spans on the run's trace id, attributes within the documented
 * caps, no unhandled rejection or uncaught exception, and metric collection still works. The last
 * way in checks structure only: payloads that break the catalog's types can put their fields into
 * span names and attributes unbounded (a known gap of the bridge's semantic layer), but they must
 * never cost the trace its shape.
 */
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import fc from 'fast-check';
import { FlowChartExecutor, decide, flowChart, type FlowChart, type TypedScope } from 'footprintjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageText,
  Agent,
  defineSkill,
  EVENT_TYPES,
  READ_SKILL,
  RunFailedError,
  Runner,
  scripted,
  skillGraph,
  metricsInstrument,
  registerInstrument,
  traceExecutor,
  tracingInstrument,
  type LLMProvider,
  type LLMResponse,
} from '../../src/index.js';
import { quietLogger, stage } from '../../src/runtime/run/index.js';
import { MAX_TOOL_RESULT_CHARS } from '../../src/runtime/tools/index.js';
import { anything, oddPayload, oddShortString, oddText } from '../support/reliability/oddValues.js';
import { outcomeOf } from '../support/reliability/runs.js';
import { startSdk } from '../support/sdk.js';
import { traceProblems } from '../support/traceChecks.js';

const MODEL_TEXT_CAP = MAX_TOOL_RESULT_CHARS + 40;

class ManualReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const sdk = startSdk();
const reader = new ManualReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const escaped: unknown[] = [];
const onEscape = (error: unknown) => void escaped.push(error);

beforeAll(() => {
  metrics.setGlobalMeterProvider(meterProvider);
  registerInstrument(metricsInstrument());
  process.on('unhandledRejection', onEscape);
  process.on('uncaughtException', onEscape);
});
afterEach(async () => {
  // metric collection still works after whatever went through the instruments
  const { errors } = await reader.collect();
  expect(errors).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(escaped).toEqual([]);
});
afterAll(async () => {
  process.off('unhandledRejection', onEscape);
  process.off('uncaughtException', onEscape);
  await meterProvider.shutdown();
  metrics.disable();
  await sdk.shutdown();
});

const detail = fc.constantFrom<'full' | 'semantic'>('full', 'semantic');

/** Starts one property run: clean span store, the chosen detail and content capture. */
function begin(mode: 'full' | 'semantic', capture: boolean): void {
  sdk.reset();
  registerInstrument(tracingInstrument({ detail: mode, captureContent: capture }));
}

function expectOneWellFormedTrace(options: { caps?: boolean } = {}): void {
  const problems = traceProblems(sdk.spans(), { unended: sdk.unended(), traces: 1 });
  const structural = options.caps === false ? problems.filter((p) => !/: (\d+ chars|list (item|of))/.test(p)) : problems;
  expect(structural).toEqual([]);
}

const settings = (numRuns: number) => ({ numRuns });

describe('a tool that returns an odd payload', () => {
  let returned: unknown;
  const seen: string[] = [];
  const provider = {
    name: 'openai',
    complete: async (request: Parameters<LLMProvider['complete']>[0]): Promise<LLMResponse> => {
      const tool = request.messages.find((m) => m.role === 'tool');
      if (tool) {
        seen.push(messageText(tool.content));
        return { content: 'done', toolCalls: [], usage: { input: 3, output: 1 }, stopReason: 'end_turn' };
      }
      return { content: '', toolCalls: [{ id: 'call-1', name: 'produce', args: {} }], usage: { input: 2, output: 1 }, stopReason: 'tool_use' };
    },
  } satisfies LLMProvider;
  const agent = Agent.create({ provider, model: 'm-prop', id: 'prop', name: 'Prop' })
    .tool({ name: 'produce', description: 'Returns the payload', inputSchema: { type: 'object' }, execute: () => returned })
    .build();

  it('the run answers, the model sees bounded text, the trace is well-formed', async () => {
    await fc.assert(
      fc.asyncProperty(oddPayload, detail, fc.boolean(), async (payload, mode, capture) => {
        begin(mode, capture);
        returned = payload;
        seen.length = 0;
        expect((await agent.run('go')).text).toBe('done');
        expect(seen).toHaveLength(1);
        expect(typeof seen[0]).toBe('string');
        expect(seen[0]!.length).toBeLessThanOrEqual(MODEL_TEXT_CAP);
        expectOneWellFormedTrace();
      }),
      settings(150),
    );
  }, 60_000);
});

describe('a model that answers with odd output', () => {
  /** Arguments as a model object: a plain-object payload as it is, anything else under `value`. */
  const args = oddPayload.map((value) => (isPlainObject(value) ? (value as Record<string, unknown>) : { value }));
  const call = fc.record({ id: oddShortString, name: fc.oneof(fc.constant('echo'), oddShortString), args });
  const reply = fc.record({
    calls: fc.array(call, { minLength: 1, maxLength: 3 }),
    duplicateIds: fc.boolean(),
    firstContent: oddText,
    finalContent: oddText,
    usage: fc.record({ input: fc.double(), output: fc.double() }),
    stopReason: oddShortString,
    model: oddShortString,
    id: oddShortString,
  });

  it('the run answers the final content (or fails typed when usage is impossible or arguments cannot be stored); the trace is well-formed', async () => {
    await fc.assert(
      fc.asyncProperty(reply, detail, fc.boolean(), async (r, mode, capture) => {
        begin(mode, capture);
        const calls = r.duplicateIds ? r.calls.map((c) => ({ ...c, id: r.calls[0]!.id })) : r.calls;
        let index = 0;
        const provider: LLMProvider = {
          name: 'openai',
          complete: async () =>
            index++ === 0
              ? { content: r.firstContent, toolCalls: calls, usage: r.usage, stopReason: r.stopReason, model: r.model, id: r.id }
              : { content: r.finalContent, toolCalls: [], usage: r.usage, stopReason: r.stopReason, model: r.model, id: r.id },
        };
        const agent = Agent.create({ provider, model: 'm-prop', id: 'prop', name: 'Prop' })
          .tool({ name: 'echo', description: 'Echoes', inputSchema: { type: 'object' }, execute: (a: unknown) => a })
          .build();
        const result = await outcomeOf(agent.run('go'));
        const usable = [r.usage.input, r.usage.output].every((n) => Number.isFinite(n) && n >= 0 && n <= Number.MAX_SAFE_INTEGER);
        if (result.ok) expect(result.value.text).toBe(r.finalContent);
        else if (!usable) {
          // token counts that are not finite, >= 0 and at most 2^53 - 1 make the reply malformed, typed at the provider boundary
          expect(result.error).toBeInstanceOf(RunFailedError);
          expect((result.error as RunFailedError).cause).toMatchObject({ name: 'ProviderError', kind: 'malformed_response' });
        } else {
          // footprintjs stores a turn's state with structuredClone: arguments it cannot clone fail the run, typed
          expect(result.error).toBeInstanceOf(RunFailedError);
          expect(calls.some((c) => !cloneable(c.args))).toBe(true);
        }
        expectOneWellFormedTrace();
      }),
      settings(120),
    );
  }, 60_000);
});

describe('a model that calls the built-in read_skill with any JSON as arguments', () => {
  const triage = defineSkill({ id: 'triage', description: 'Sorts requests', body: 'Sort it.' });
  const billing = defineSkill({ id: 'billing', description: 'Money', body: 'Bill it.' });
  const graph = skillGraph().entry(triage).edge(triage, billing).build();
  const jsonArgs = fc.oneof(
    fc.record({ id: fc.jsonValue() }),
    fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 4 }),
    fc.record({ id: fc.constantFrom('billing', 'triage', 'nowhere', '') }),
    fc.record({ id: fc.jsonValue().map((v) => ({ toString: v, valueOf: v })) }),
  );

  it('the run answers, the trace is well-formed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(jsonArgs, { minLength: 1, maxLength: 3 }), detail, fc.boolean(), async (calls, mode, capture) => {
        begin(mode, capture);
        const provider = scripted({
          replies: [{ toolCalls: calls.map((args) => ({ name: READ_SKILL, args: args as Record<string, unknown> })) }, 'answered'],
        });
        const agent = Agent.create({ provider, model: 'm-prop', id: 'desk', name: 'Desk' }).skillGraph(graph).build();
        expect((await agent.run('help')).text).toBe('answered');
        expectOneWellFormedTrace();
      }),
      settings(100),
    );
  }, 60_000);
});

describe('a plain footprintjs chart that $emits odd payloads', () => {
  const name = fc.oneof(fc.constantFrom(...EVENT_TYPES), fc.string({ maxLength: 40, unit: 'binary' }), fc.constantFrom('', 'footprint.', 'footprint.x.y.z', 'x.seed'));
  const emits = fc.array(fc.tuple(name, oddPayload), { maxLength: 4 });

  let plan: { first: [string, unknown][]; inner: [string, unknown][]; decider: [string, unknown][] } = { first: [], inner: [], decider: [] };
  const emitAll = (scope: { $emit(name: string, payload?: unknown): void }, list: [string, unknown][]) => {
    for (const [event, payload] of list) scope.$emit(event, payload);
  };
  const inner = flowChart<{ n: number }>('InnerStage', (scope) => emitAll(scope, plan.inner), 'inner-stage').setLogger(quietLogger).build();
  const chart: FlowChart = flowChart<{ n: number }>('First', (scope) => {
    scope.n = 1;
    emitAll(scope, plan.first);
  }, 'first')
    .addSubFlowChartNext('sf-inner', inner, 'Inner')
    .addDeciderFunction('Choose', (scope) => {
      emitAll(scope, plan.decider);
      return decide(scope, [{ when: { n: { gt: 0 } }, then: 'yes', label: 'positive' }], { branch: 'no', label: 'otherwise' });
    }, 'choose')
    .addFunctionBranch('yes', 'Yes', (scope) => emitAll(scope, plan.first))
    .addFunctionBranch('no', 'No', () => {})
    .end()
    .setLogger(quietLogger)
    .build();

  it('the run completes, the trace is well-formed', async () => {
    await fc.assert(
      fc.asyncProperty(emits, emits, emits, detail, fc.boolean(), async (first, innerEmits, decider, mode, capture) => {
        begin(mode, capture);
        plan = { first, inner: innerEmits, decider };
        const executor = traceExecutor(new FlowChartExecutor(chart), { name: 'odd', detail: mode, captureContent: capture });
        await executor.run({ input: {} });
        expectOneWellFormedTrace();
      }),
      settings(150),
    );
  }, 60_000);
});

describe("a runner whose stage $emits the catalog's event names with payloads of the wrong shape", () => {
  class Emitter extends Runner {
    readonly kind = 'llm_call' as const;
    readonly id = 'emitter';
    readonly name = 'Emitter';
    plan: [string, unknown][] = [];
    protected buildChart(): FlowChart {
      const member = { kind: this.kind, id: this.id };
      return flowChart<{ output?: string }>('Emit', stage(member, 'emit', (scope: TypedScope<{ output?: string }>) => {
        for (const [event, payload] of this.plan) scope.$emit(event, payload);
      }), 'emit')
        .addFunction('Answer', stage(member, 'answer', (scope: TypedScope<{ output?: string }>) => {
          scope.output = 'emitted';
          return 'emitted';
        }), 'answer')
        .setLogger(quietLogger)
        .build();
    }
  }
  const emitter = new Emitter();
  /** The payload as sent, or spread into an object with fields the catalog's payloads use. */
  const shaped = fc.oneof(
    oddPayload,
    fc.record({ callId: anything, toolCallId: anything, agentId: anything, kind: anything, chosen: anything, to: anything, usage: anything, error: anything, payload: oddPayload }),
  );
  const plan = fc.array(fc.tuple(fc.constantFrom(...EVENT_TYPES), shaped), { minLength: 1, maxLength: 12 });

  it('no exception escapes; the run answers in one trace, every span ended, one root', async () => {
    await fc.assert(
      fc.asyncProperty(plan, detail, fc.boolean(), async (events, mode, capture) => {
        begin(mode, capture);
        emitter.plan = events;
        expect((await emitter.run('go')).text).toBe('emitted');
        expectOneWellFormedTrace({ caps: false });
      }),
      settings(150),
    );
  }, 60_000);
});

function cloneable(value: unknown): boolean {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): boolean {
  try {
    return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
  } catch {
    return false; // a Proxy whose traps throw
  }
}
