/**
 * One conformance suite per scenario: the scenario runs once (beforeAll) with the real SDK, the
 * checker judges its spans and metrics, and the suite asserts (1) no violation outside the known
 * deviations the scenario names, and (2) for each named deviation, as `it.fails`, that its lines are
 * gone — so each flips to red the day its fix lands and must then be deleted from the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTelemetry,
  startSemconvTelemetry,
  type SemconvTelemetry,
  type TelemetryOptions,
  type TelemetryUnderTest,
} from '../support/semconv/index.js';
import { KNOWN_DEVIATIONS, type DeviationKey } from './knownDeviations.js';

export interface ConformanceScenario {
  name: string;
  telemetry: TelemetryOptions;
  /** Runs the scenario against the registered SDK. */
  run(): Promise<void>;
  /** The data facts (see scenarios/facts.ts). */
  availableOnSpan: TelemetryUnderTest['availableOnSpan'];
  availableOnPoint: NonNullable<TelemetryUnderTest['availableOnPoint']>;
  /** The known deviations this scenario still shows today. */
  deviationsToday: readonly DeviationKey[];
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

    it('breaks no v1.41 rule beyond the known deviations it names', () => {
      const known = scenario.deviationsToday.map((key) => KNOWN_DEVIATIONS[key]);
      expect(get().violations.filter((line) => !known.some((deviation) => deviation.matches(line)))).toEqual([]);
    });

    for (const key of scenario.deviationsToday) {
      const deviation = KNOWN_DEVIATIONS[key];
      // Fails today on purpose (see knownDeviations.ts); delete the key from the scenario once fixed.
      it.fails(`${deviation.item}: ${deviation.title}`, () => {
        expect(get().violations.filter((line) => deviation.matches(line))).toEqual([]);
      });
    }

    extra?.(get);
  });
}
