/**
 * metricsInstrument(): the run instrument that records footprint-otel's metrics through the OTel
 * metrics API. With no MeterProvider registered (and none given) start() returns undefined, so a run
 * pays nothing; the check runs at every run start, so a provider registered later is picked up.
 * Instruments are created once per meter and shared by all runs.
 */
import { createNoopMeter, metrics, type Meter, type MeterProvider } from '@opentelemetry/api';
import type { RunInstrument, RunSession, RunStart } from '../../runtime/index.js';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, SEMCONV_SCHEMA_URL, semconvModeFromEnv, type SemconvMode } from '../encoding/index.js';
import { createRunInstruments, type MeterForSchema, type RunInstruments } from './instrumentSet.js';
import { recordRun } from './runRecorder.js';
import { ResponseModels } from './outsideValues.js';
import { TripSeries } from './tripSeries.js';

export const METRICS_INSTRUMENT_ID = 'footprint-otel.metrics';
/**
 * The meters' scope: the bridge's name and version, and the conventions its gen_ai.* metrics follow
 * (v1.41.0; the development channel's metrics on a second scope with that channel's schema URL).
 */
export const METER_NAME = INSTRUMENTATION_NAME;

export interface MetricsInstrumentOptions {
  /** Record into this provider instead of the globally registered one. */
  meterProvider?: MeterProvider;
  /**
   * Which conventions' metric names to record (docs/conventions.md): 'current' (the default),
   * 'v1.41', or 'both' for a migration window. Default: OTEL_SEMCONV_STABILITY_OPT_IN.
   */
  semconv?: SemconvMode;
}

interface MeterState {
  instruments: RunInstruments;
  trips: TripSeries;
  responseModels: ResponseModels;
}

const NoopMeter = createNoopMeter().constructor;

export function metricsInstrument(options: MetricsInstrumentOptions = {}): RunInstrument {
  const mode = options.semconv ?? semconvModeFromEnv();
  const states = new WeakMap<Meter, MeterState>();
  const stateFor = (provider: MeterProvider, meter: Meter): MeterState => {
    let state = states.get(meter);
    if (!state) {
      const meterFor: MeterForSchema = (schemaUrl) => (schemaUrl === undefined ? meter : scopedMeter(provider, schemaUrl));
      const instruments = createRunInstruments(meterFor, mode);
      state = { instruments, trips: new TripSeries(instruments.trips), responseModels: new ResponseModels() };
      states.set(meter, state);
    }
    return state;
  };
  return {
    id: METRICS_INSTRUMENT_ID,
    start(run: RunStart): RunSession | undefined {
      const provider = options.meterProvider ?? metrics.getMeterProvider();
      const meter = scopedMeter(provider, SEMCONV_SCHEMA_URL);
      if (meter instanceof NoopMeter) return undefined;
      const { instruments, trips, responseModels } = stateFor(provider, meter);
      return recordRun(run, instruments, trips, responseModels);
    },
  };
}

/** The bridge's meter for the metrics that follow the conventions at `schemaUrl`. */
function scopedMeter(provider: MeterProvider, schemaUrl: string): Meter {
  return provider.getMeter(METER_NAME, INSTRUMENTATION_VERSION, { schemaUrl });
}
