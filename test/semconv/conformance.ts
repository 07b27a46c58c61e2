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
}

/** Declares the suite; returns a getter for the run's telemetry and violations for extra tests. */
export function conformanceSuite(scenario: ConformanceScenario, extra?: (result: () => ScenarioResult) => void): void {
  describe(`v1.41 conformance: ${scenario.name}`, () => {
    let result: ScenarioResult | undefined;
    const get = (): ScenarioResult => {
      if (!result) throw new Error('scenario did not run');
      return result;
    };

    beforeAll(async () => {
      const telemetry = startSemconvTelemetry(scenario.telemetry);
      await scenario.run();
      const violations = checkTelemetry({
        spans: telemetry.spans(),
        startOf: telemetry.startOf,
        metrics: await telemetry.collectMetrics(),
        availableOnSpan: scenario.availableOnSpan,
        availableOnPoint: scenario.availableOnPoint,
      });
      result = { telemetry, violations };
    });

    afterAll(async () => {
      await result?.telemetry.shutdown();
    });

    it('breaks no v1.41 rule', () => {
      expect(get().violations).toEqual([]);
    });

    extra?.(get);
  });
}
