/**
 * The OTel setup of the benchmarks that trace in their own process: the AsyncLocalStorage context
 * manager registered globally (as a Node app's SDK registers it) and a BasicTracerProvider whose
 * BatchSpanProcessor hands its spans to a counting exporter (bench/countingExporter.ts: the SDK's
 * recording and batching timed, no serialisation or I/O). Registered once per process.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { countingExporter, type CountingExporter } from './countingExporter.js';

export function inProcessTracing(): { manager: AsyncLocalStorageContextManager; provider: BasicTracerProvider; exporter: CountingExporter } {
  const manager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(manager.enable());
  const exporter = countingExporter();
  return { manager, provider: new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] }), exporter };
}
