/**
 * One benchmark mode, in its own process (AsyncLocalStorage promise hooks are process-global, so
 * modes must not share one). Prints one JSON line: the median time per run (or per stage for the
 * engine floor, per span for the SDK floor) over several repeats, by each clock of bench/clock.ts
 * (the wall clock, the process's CPU time, the main thread's CPU time), the stages per run and the
 * spans per run.
 *
 *   modes: engine-floor | bare | untraced | full-noop | semantic-noop | full-otlp | semantic-otlp | sdk-floor
 *   replay-full | replay-semantic: the bridge alone, a recorded turn replayed (bench/bridgeReplay.ts)
 *   replay-between-full | replay-between-semantic: the same replay, each right after an untraced
 *     engine turn: (turn + replay) - turn, so the bridge's work is timed where it runs in a traced
 *     turn, among the engine's code and garbage instead of alone in a tight loop
 *   hooks-only: the untraced turn plus two empty stage hooks, heard as the bridge hears them (the run's
 *     own stage reports, runtime/run/stageReports.ts)
 *   hooks-activate: hooks-only, plus the run in a context of its own and a new context made active at
 *     every stage start, as the bridge does (AsyncLocalStorage propagation through the engine's promises)
 *   full-unsampled | semantic-unsampled: that detail with every span unsampled: the bridge's own
 *     work, with the SDK's cheapest path (non-recording spans)
 *   clone-bytes: not timed; what footprintjs copies per untraced turn (bench/cloneBytes.ts)
 */
import { context, createContextKey, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { AlwaysOffSampler, BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { threadCpuNs } from './clock.js';
import { countingExporter } from './countingExporter.js';
import { median, warmUp } from './measure.js';
import { FlowChartExecutor } from 'footprintjs';

const [mode = 'untraced', receiverUrl = ''] = process.argv.slice(2);
/** The warm-up before a mode is timed: at least this many calls and seconds (measure.ts warmUp). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 400);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 7);
const RUNS = Number(process.env.BENCH_RUNS ?? 400);

const countingNoop = countingExporter();

const between = mode.startsWith('replay-between-');
const traced = !['bare', 'untraced', 'engine-floor', 'clone-bytes', 'hooks-only', 'hooks-activate'].includes(mode) && !between;
const contextManager = new AsyncLocalStorageContextManager();
if (traced || between || mode === 'hooks-activate') context.setGlobalContextManager(contextManager.enable());
let provider: BasicTracerProvider | undefined;
if (traced) {
  const exporter = mode.endsWith('-otlp') ? new OTLPTraceExporter({ url: `${receiverUrl}/v1/traces` }) : countingNoop;
  const sampler = mode.endsWith('-unsampled') ? new AlwaysOffSampler() : undefined;
  provider = new BasicTracerProvider({ sampler, spanProcessors: [new BatchSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
}

const { referenceAgent, stagesPerTurn, MESSAGE } = await import('./scenario.js');
const { registerInstrument, tracingInstrument } = await import('../src/index.js');
const { subscribeStages } = await import('../src/runtime/index.js');
if (traced) registerInstrument(tracingInstrument({ detail: mode.includes('semantic') ? 'semantic' : 'full' }));

/** µs per call, the median over the repeats, by each clock (bench/clock.ts). */
interface PerCall {
  wall: number;
  cpu: number;
  /** Time the garbage collector paused the main thread (minor and major collections). */
  gc: number;
  /** The main thread's CPU time (bench/clock.ts). */
  thread: number;
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/** Times `runs` calls in a row (yielding to timers every 50 calls): per call, by each clock. */
async function timeBlock(call: () => Promise<unknown>, runs: number): Promise<PerCall> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const threadStarted = threadCpuNs();
  const gcStarted = gcMs;
  for (let i = 0; i < runs; i++) {
    await call();
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  const cpuUsed = process.cpuUsage(cpuStarted);
  const thread = (threadCpuNs() - threadStarted) / 1000 / runs;
  const wall = ((performance.now() - started) * 1000) / runs;
  // GC entries arrive asynchronously: let the observer catch up before reading the sum.
  await new Promise((r) => setImmediate(r));
  return { wall, cpu: (cpuUsed.user + cpuUsed.system) / runs, gc: ((gcMs - gcStarted) * 1000) / runs, thread };
}

function medianOf(samples: PerCall[]): PerCall {
  return { wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)), gc: median(samples.map((s) => s.gc)), thread: median(samples.map((s) => s.thread)) };
}

async function timePerCall(call: () => Promise<unknown>, runs: number): Promise<PerCall> {
  await warmUp(call, WARMUP_SECONDS, WARMUP);
  const repeats: PerCall[] = [];
  for (let r = 0; r < REPEATS; r++) repeats.push(await timeBlock(call, runs));
  return medianOf(repeats);
}

/**
 * What `extra` adds to `base` when it runs right after it: blocks of `base` alone and of `base` then
 * `extra` alternate (so drift hits both alike), and the median of the per-call differences is kept.
 */
async function timeAdded(base: () => Promise<unknown>, extra: () => void): Promise<PerCall> {
  const block = 50;
  const both = async () => {
    await base();
    extra();
  };
  await warmUp(both, WARMUP_SECONDS, WARMUP);
  const added: PerCall[] = [];
  for (let i = 0; i < (REPEATS * RUNS * 2) / block; i++) {
    const alone = await timeBlock(base, block);
    const withExtra = await timeBlock(both, block);
    added.push({ wall: withExtra.wall - alone.wall, cpu: withExtra.cpu - alone.cpu, gc: withExtra.gc - alone.gc, thread: withExtra.thread - alone.thread });
  }
  return medianOf(added);
}

const per = (t: PerCall, units: number): PerCall => ({ wall: t.wall / units, cpu: t.cpu / units, gc: t.gc / units, thread: t.thread / units });

const agent = referenceAgent();

// Stages per run, counted once on a turn of their own.
const stages = await stagesPerTurn(agent);
if (traced) await provider!.forceFlush();
const spansBefore = countingNoop.exported;
if (traced) {
  await agent.run(MESSAGE);
  await provider!.forceFlush();
}
const spansPerRun = countingNoop.exported - spansBefore;

if (mode === 'clone-bytes') {
  const { measureCloneBytes } = await import('./cloneBytes.js');
  const cloned = await measureCloneBytes({ turn: () => agent.run(MESSAGE), turns: 5 });
  process.stdout.write(`${JSON.stringify({ mode, ...cloned })}\n`);
  process.exit(0);
}

let perUnit: PerCall;
if (mode === 'sdk-floor') {
  // The OTel SDK's own cost of one span as the bridge makes it (bench/floors.ts).
  const { sdkFloorBatch, SDK_FLOOR_BATCH } = await import('./floors.js');
  perUnit = per(await timePerCall(sdkFloorBatch(trace.getTracer('bench-floor')), RUNS), SDK_FLOOR_BATCH);
} else if (mode === 'engine-floor') {
  // footprintjs's own cost per stage: a linear chart of the same length (bench/floors.ts).
  const { engineFloorRun } = await import('./floors.js');
  perUnit = per(await timePerCall(engineFloorRun(stages), RUNS), stages);
} else if (between) {
  // The engine turns stay untraced (no global provider); the replay traces into a provider of its own.
  const { recordTurn, replayTurn } = await import('./bridgeReplay.js');
  const steps = await recordTurn(() => agent.run(MESSAGE));
  const own = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(countingNoop)] });
  const tracer = own.getTracer('bench-replay');
  const detail = mode === 'replay-between-semantic' ? 'semantic' : 'full';
  perUnit = await timeAdded(() => agent.run(MESSAGE), () => replayTurn(steps, { tracer, detail }));
  await own.shutdown();
} else if (mode.startsWith('replay-')) {
  const { recordTurn, replayTurn } = await import('./bridgeReplay.js');
  const steps = await recordTurn(() => agent.run(MESSAGE));
  const tracer = trace.getTracer('bench-replay');
  const detail = mode === 'replay-semantic' ? 'semantic' : 'full';
  perUnit = await timePerCall(async () => replayTurn(steps, { tracer, detail }), RUNS);
} else if (mode === 'hooks-only' || mode === 'hooks-activate') {
  // What footprintjs and AsyncLocalStorage cost a traced turn before any span: the bridge's two stage
  // hooks, empty; with activation, the run in a new context and a new context entered at each stage start.
  const key = createContextKey('bench.stage');
  const activate = mode === 'hooks-activate';
  const stop = registerInstrument({
    id: 'bench.hooks',
    start(run) {
      const onStageStart = activate ? () => void contextManager.attach(context.active().setValue(key, true)) : () => {};
      // As the bridge hears a run's stages: the run's own stage reports (the runtime's charts), else footprintjs's hooks.
      const fromHub = subscribeStages(run.events, { started: onStageStart, ended: () => {} });
      if (!fromHub) run.executor.attachCombinedRecorder({ id: 'bench.hooks', onStageStart, onStageEnd: () => {} }, { delivery: 'inline' });
      return activate ? { around: (call) => context.with(context.active().setValue(key, false), call) } : {};
    },
  });
  perUnit = await timePerCall(() => agent.run(MESSAGE), RUNS);
  stop();
} else if (mode === 'bare') {
  // The chart in a plain executor, with the run context its stages reach for their run's store in its
  // env, and the runner's scope factory, which gives each stage its stage id (where an agent finds its turn).
  const { runEnv } = await import('../src/runtime/run/context.js');
  const { stageScopeFactory } = await import('../src/runtime/run/stageScope.js');
  const { MemberIndex } = await import('../src/runtime/run/members.js');
  const { EventHub } = await import('../src/runtime/run/hub.js');
  const { RunStore } = await import('../src/runtime/run/store.js');
  const chart = agent.chart();
  const index = new MemberIndex(agent);
  const bareRun = () => runEnv({ runId: 'run_bench', store: new RunStore(), events: new EventHub('run_bench', index) }, undefined);
  perUnit = await timePerCall(
    () => new FlowChartExecutor(chart, { scopeFactory: stageScopeFactory(chart), readTracking: 'off', writeTracking: 'off' }).run({ input: { message: MESSAGE }, env: bareRun() }),
    RUNS,
  );
} else {
  perUnit = await timePerCall(() => agent.run(MESSAGE), RUNS);
}
await provider?.shutdown();
process.stdout.write(`${JSON.stringify({ mode, usPerUnit: perUnit.wall, cpuUsPerUnit: perUnit.cpu, gcUsPerUnit: perUnit.gc, threadUsPerUnit: perUnit.thread, stages, spansPerRun })}\n`);
