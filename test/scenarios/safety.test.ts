/**
 * The bridge never throws into the app: with a tracer whose spans break (addEvent throws) or that
 * cannot start spans at all, runs still answer, failures are counted, and OTel's diag logger hears
 * about it once, not once per failure.
 */
import { diag, DiagLogLevel, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { tracingFailures, tracingInstrument } from '../../src/otel/index.js';
import { registerInstrument } from '../../src/runtime/index.js';
import { twoToolAgent } from '../support/agents.js';

const errors: unknown[][] = [];
diag.setLogger(
  { error: (...args: unknown[]) => errors.push(args), warn() {}, info() {}, debug() {}, verbose() {} },
  DiagLogLevel.ERROR,
);
const exporter = new InMemorySpanExporter();
const real = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
afterAll(() => real.shutdown());

function providerWith(breakSpan: (span: Span) => Span | never): TracerProvider {
  return {
    getTracer: (...args: Parameters<TracerProvider['getTracer']>) => {
      const tracer = real.getTracer(...args);
      return { startSpan: (...a: Parameters<Tracer['startSpan']>) => breakSpan(tracer.startSpan(...a)) } as unknown as Tracer;
    },
  };
}

describe('a broken tracer', () => {
  it('costs spans, never the run', async () => {
    const addEventThrows = providerWith(
      (span) =>
        new Proxy(span, {
          get(target, property) {
            if (property === 'addEvent') return () => { throw new Error('addEvent is broken'); };
            const value = Reflect.get(target, property) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    );
    const before = tracingFailures();
    const unregister = registerInstrument(tracingInstrument({ tracerProvider: addEventThrows }));
    try {
      expect((await twoToolAgent().run('q')).text).toBe('Invoice 42 is paid.');
      expect((await twoToolAgent().run('q')).text).toBe('Invoice 42 is paid.');
    } finally {
      unregister();
    }
    expect(tracingFailures()).toBeGreaterThan(before + 1);
    expect(exporter.getFinishedSpans().some((s) => s.name === 'chat m1')).toBe(true);

    const noSpans = providerWith(() => {
      throw new Error('cannot start spans');
    });
    const failuresBefore = tracingFailures();
    const unregisterAgain = registerInstrument(tracingInstrument({ tracerProvider: noSpans }));
    try {
      expect((await twoToolAgent().run('q')).text).toBe('Invoice 42 is paid.');
    } finally {
      unregisterAgain();
    }
    expect(tracingFailures()).toBe(failuresBefore + 1);
    expect(errors).toHaveLength(1);
    expect(String(errors[0][0])).toContain('footprint-otel');
  });
});
