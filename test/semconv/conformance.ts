/**
 * One conformance suite per scenario: the scenario runs once (beforeAll) with the real SDK, the
 * checker judges its spans and metrics, and the suite asserts that it reports no violation at all
 * (a departure kept on purpose is described in docs/departures.md and the checker's rule says so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTelemetry,
  startSemconvTelemetry,
  type SemconvTelemetry,
  type TelemetryOptions,
  type TelemetryUnderTest,
} from '../support/semconv/index.js';

export interface ConformanceScenario {
  name: string;
  telemetry: TelemetryOptions;
  /** Runs the scenario against the registered SDK. */
  run(): Promise<void>;
  /** The data facts (see scenarios/facts.ts). */
  availableOnSpan: TelemetryUnderTest['availableOnSpan'];
  availableOnPoint: NonNullable<TelemetryUnderTest['availableOnPoint']>;
}

export interface ScenarioResult {
  telemetry: SemconvTelemetry;
  violations: string[];
  /** The exported metric names that count tokens. */
  tokenMetrics: string[];
}

/** The token metrics each semconv mode records (docs/conventions.md), as the export names them. */
const TOKEN_METRICS = {
  current: /^gen_ai\.client\.inference\.usage\./,
  'v1.41': /^gen_ai\.client\.token\.usage$/,
} as const;

/**
 * Declares the suite, once per mode: the default ('current', the conventions' current model) and
 * 'v1.41'; the extra tests run in the default mode. Returns through `extra` a getter for the run's
 * telemetry and violations.
 */
export function conformanceSuite(scenario: ConformanceScenario, extra?: (result: () => ScenarioResult) => void): void {
  for (const mode of ['current', 'v1.41'] as const) modeSuite(scenario, mode, mode === 'current' ? extra : undefined);
}

function modeSuite(scenario: ConformanceScenario, mode: 'current' | 'v1.41', extra?: (result: () => ScenarioResult) => void): void {
  describe(`${mode} conformance: ${scenario.name}`, () => {
    let result: ScenarioResult | undefined;
    const get = (): ScenarioResult => {
      if (!result) throw new Error('scenario did not run');
      return result;
    };

    beforeAll(async () => {
      const telemetry = startSemconvTelemetry({ ...scenario.telemetry, semconv: mode });
      await scenario.run();
      const metrics = await telemetry.collectMetrics();
      const violations = checkTelemetry({
        spans: telemetry.spans(),
        startOf: telemetry.startOf,
        metrics,
        availableOnSpan: scenario.availableOnSpan,
        availableOnPoint: scenario.availableOnPoint,
        spanModel: mode,
      });
      const names = metrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name));
      const tokenMetrics = names.filter((name) => name.includes('token')).sort();
      result = { telemetry, violations, tokenMetrics };
    });

    afterAll(async () => {
      await result?.telemetry.shutdown();
    });

    it('breaks no rule of the models its names follow', () => {
      expect(get().violations).toEqual([]);
    });

    it(`records token usage under the ${mode} names only`, () => {
      const { tokenMetrics } = get();
      // A scenario whose calls all fail records none (test/otel/metrics/semconvMode.test.ts checks what each mode records).
      expect(tokenMetrics).toEqual(tokenMetrics.filter((name) => TOKEN_METRICS[mode].test(name)));
    });

    extra?.(get);
  });
}
