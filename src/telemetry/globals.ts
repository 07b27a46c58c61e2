/**
 * Registers the SDK with the OpenTelemetry API — tracer provider, meter provider, an
 * AsyncLocalStorage context manager and the W3C trace-context + baggage propagator — and undoes
 * exactly what it registered. If another SDK already holds a slot (an app that runs its own NodeSDK),
 * that slot is left alone and the conflict is reported once through diag.
 */
import { context, diag, metrics, propagation, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';

/** Registers the providers; returns a function that unregisters whatever was registered. */
export function registerGlobals(tracerProvider: TracerProvider, meterProvider: MeterProvider): () => void {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const registered = {
    context: context.setGlobalContextManager(contextManager),
    propagation: propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    ),
    trace: trace.setGlobalTracerProvider(tracerProvider),
    metrics: metrics.setGlobalMeterProvider(meterProvider),
  };
  const taken = Object.entries(registered).filter(([, ok]) => !ok).map(([slot]) => slot);
  if (taken.length > 0) {
    diag.warn(`footprint-otel: another OpenTelemetry SDK is already registered (${taken.join(', ')}); startTelemetry left those in place`);
  }
  if (!registered.context) contextManager.disable();
  return () => {
    if (registered.trace) trace.disable();
    if (registered.metrics) metrics.disable();
    if (registered.propagation) propagation.disable();
    if (registered.context) context.disable();
  };
}
