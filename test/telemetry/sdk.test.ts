/**
 * startTelemetry next to an SDK the app registered itself: the app's registration stays in place
 * (the API refuses a second one, and startTelemetry says so once), and shutdown releases only the API
 * slots startTelemetry filled (the logs API's logger provider among them), so the app's tracer provider keeps working afterwards.
 */
import { diag, DiagLogLevel, trace } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, expect, it } from 'vitest';
import { takenSlots } from '../../src/telemetry/globals.js';
import { startTelemetry } from '../../src/telemetry/index.js';
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
