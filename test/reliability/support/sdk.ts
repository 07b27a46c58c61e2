/**
 * The real OTel SDK for the reliability tests: a BasicTracerProvider exporting through a
 * SimpleSpanProcessor into an InMemorySpanExporter, plus a processor that remembers every span that
 * started and never ended, and the AsyncLocalStorage context manager — registered globally for the
 * test file (vitest gives every file its own fork). The package entry's default tracing instrument
 * picks the provider up at each run start.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** Remembers started spans until they end, so a test can prove none was left open. */
class OpenSpans implements SpanProcessor {
  private readonly open = new Set<Span>();
  onStart(span: Span): void {
    this.open.add(span);
  }
  onEnd(span: ReadableSpan): void {
    this.open.delete(span as Span);
  }
  names(): string[] {
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

export interface TestSdk {
  spans(): ReadableSpan[];
  /** Names of spans started but not ended. */
  unended(): string[];
  reset(): void;
  shutdown(): Promise<void>;
}

export function startSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  const open = new OpenSpans();
  const provider = new BasicTracerProvider({ spanProcessors: [open, new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return {
    spans: () => exporter.getFinishedSpans(),
    unended: () => open.names(),
    reset: () => {
      exporter.reset();
      open.forget();
    },
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}
