/**
 * startTelemetry next to an SDK the app registered itself: the app's registration stays in place
 * (the API refuses a second one, and startTelemetry says so once), and shutdown releases only the API
 * slots startTelemetry filled (the logs API's logger provider among them), so the app's tracer provider keeps working afterwards,
 * and so do the tracing and metrics instruments the app registered before it.
 */
import { diag, DiagLogLevel, trace } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, it } from 'vitest';
import { metricsInstrument, tracingInstrument } from '../../src/otel/index.js';
import { Agent, registerInstrument, scripted } from '../../src/runtime/index.js';
import { takenSlots } from '../../src/telemetry/globals.js';
import { startTelemetry } from '../../src/telemetry/index.js';
import { startMeter } from '../support/meter.js';
import { scratchFolders } from '../support/scratch.js';

const scratch = scratchFolders('fp-sdk-');

afterEach(() => {
  trace.disable();
  diag.disable();
});

it('leaves the app\'s tracer provider registered, and releases only the slots it filled', async () => {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  const complaints: string[] = [];
  const collect = (message: string) => void complaints.push(message);
  diag.setLogger({ error: collect, warn: collect, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);

  const telemetry = startTelemetry({ fileDirectory: scratch(), handleExit: false });
  expect(takenSlots()).toEqual(['trace', 'metrics', 'context', 'propagation', 'logs']);
  trace.getTracer('app').startSpan('while-running').end();
  await telemetry.shutdown();
  expect(takenSlots()).toEqual(['trace']);
  trace.getTracer('app').startSpan('after-shutdown').end();

  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['while-running', 'after-shutdown']);
  expect(complaints).toEqual([
    'footprint-otel: another OpenTelemetry SDK is already registered (trace); startTelemetry leaves those in place',
    expect.stringContaining('@opentelemetry/api: Attempted duplicate registration of API: trace'),
  ]);
});

it('releases the logger provider NodeSDK registers, so telemetry started afresh registers its own', async () => {
  const first = startTelemetry({ fileDirectory: scratch(), handleExit: false });
  const firstProvider = logs.getLoggerProvider();
  await first.shutdown();
  // the shut-down provider no longer answers for the API
  expect(logs.getLoggerProvider()).not.toBe(firstProvider);
  const again = startTelemetry({ fileDirectory: scratch(), handleExit: false });
  const againProvider = logs.getLoggerProvider();
  await again.shutdown();
  expect([againProvider === firstProvider, againProvider.constructor.name]).toEqual([false, 'LoggerProvider']);
  expect(takenSlots()).toEqual([]);
});

it('gives the app back the tracing and metrics instruments it registered before startTelemetry, once shutdown() is done', async () => {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  const meter = startMeter();
  const unregister = [registerInstrument(tracingInstrument({ detail: 'semantic' })), registerInstrument(metricsInstrument())];
  try {
    const agent = Agent.create({ provider: scripted({ replies: ['one', 'two'] }), model: 'm-small', id: 'greeter' }).build();
    expect((await agent.run('Hi')).text).toBe('one');
    const telemetry = startTelemetry({ fileDirectory: scratch(), handleExit: false });
    await telemetry.shutdown();
    exporter.reset();

    expect((await agent.run('Hi again')).text).toBe('two');
    // the app's own instrument, with its own detail: semantic spans only
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['chat m-small', 'invoke_agent greeter']);
    // both runs counted in the app's meter provider
    const runs = (await meter.collect()).series('footprint.runs');
    expect(runs.map((s) => [s.attributes['footprint.runner.id'], s.attributes['footprint.run.outcome'], s.value])).toEqual([['greeter', 'ok', 2]]);
  } finally {
    for (const off of unregister) off();
    await meter.shutdown();
  }
});
