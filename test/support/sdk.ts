/**
 * The real OTel SDK for every test that reads spans: a BasicTracerProvider with a SimpleSpanProcessor
 * into an InMemorySpanExporter, a processor that remembers spans started and never ended, the
 * AsyncLocalStorage context manager, all registered globally, plus the tracing instrument. Each test
 * file runs in its own fork (vitest pool 'forks'); reset() clears spans between tests and shutdown()
 * unregisters everything at the end of a file.
 */
import { context, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { tracingInstrument, type TracingOptions } from '../../src/otel/index.js';
import { registerInstrument } from '../../src/runtime/index.js';

/** Tracks started spans, so a test can prove none was left unended. */
class OpenSpanTracker implements SpanProcessor {
  private readonly open = new Set<Span>();
  onStart(span: Span): void {
    this.open.add(span);
  }
  onEnd(span: ReadableSpan): void {
    this.open.delete(span as Span);
  }
  unended(): string[] {
    return [...this.open].map((s) => s.name);
  }
  forget(): void {
    this.open.clear();
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

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
    reset: () => {
      exporter.reset();
      tracker.forget();
    },
    async shutdown() {
      unregister();
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}

/**
 * The SDK for the tests of one file: started before them, its spans cleared after each, shut down
 * after all. Returns the running SDK's getter (it exists once the file's tests start).
 */
export function sdkPerFile(options: Parameters<typeof startSdk>[0] = {}): () => Sdk {
  let sdk: Sdk | undefined;
  beforeAll(() => {
    sdk = startSdk(options);
  });
  afterEach(() => sdk?.reset());
  afterAll(async () => {
    await sdk?.shutdown();
  });
  return () => sdk!;
}
