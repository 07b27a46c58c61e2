/**
 * The real OTel SDK for bridge tests: a BasicTracerProvider with a SimpleSpanProcessor into an
 * InMemorySpanExporter, the AsyncLocalStorage context manager, both registered globally, plus the
 * tracing instrument. Each test file runs in its own fork (vitest pool 'forks'); reset() clears
 * spans between tests and shutdown() unregisters everything at the end of a file.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { tracingInstrument, type TracingOptions } from '../../../src/otel/index.js';
import { registerInstrument } from '../../../src/runtime/index.js';
import { OpenSpanTracker } from './tree.js';

export interface Sdk {
  exporter: InMemorySpanExporter;
  provider: BasicTracerProvider;
  spans(): ReadableSpan[];
  /** Names of spans started but never ended. */
  unended(): string[];
  reset(): void;
  shutdown(): Promise<void>;
}

export function startSdk(options: { tracing?: TracingOptions | false; contextManager?: boolean } = {}): Sdk {
  const exporter = new InMemorySpanExporter();
  const tracker = new OpenSpanTracker();
  const provider = new BasicTracerProvider({ spanProcessors: [tracker, new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  if (options.contextManager !== false) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const unregister = options.tracing === false ? () => {} : registerInstrument(tracingInstrument(options.tracing ?? {}));
  return {
    exporter,
    provider,
    spans: () => exporter.getFinishedSpans(),
    unended: () => tracker.unended(),
    reset: () => exporter.reset(),
    async shutdown() {
      unregister();
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}
