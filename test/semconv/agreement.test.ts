/**
 * Spans and metrics tell one story: the same run, recorded by both signals through the real SDK,
 * agrees on outcome, model calls, reported usage, tokens, cost and call errors — for every way a run
 * can end. Each case also states what really happened, so two signals agreeing on a wrong number
 * (0/0 tokens for a response without usage) still fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSemconvTelemetry, type SemconvTelemetry } from '../support/semconv/index.js';
import { ledgerFromMetrics, ledgerFromSpans, rollupFromRunSpan, tokensFromCounters, type Ledger } from './ledger.js';
import { TOOL_CALL_USAGE } from './scenarios/fakeOpenAI.js';
import * as runs from './scenarios/outcomes.js';

const CACHED_CALL_COST =
  ((TOOL_CALL_USAGE.prompt_tokens - TOOL_CALL_USAGE.cached_tokens) * 0.15 + TOOL_CALL_USAGE.cached_tokens * 0.075 + TOOL_CALL_USAGE.completion_tokens * 0.6) / 1e6;
const usd = (value: number) => Math.round(value * 1e12) / 1e12;

interface OutcomeCase {
  name: string;
  run(): Promise<runs.Ending>;
  ending: runs.Ending;
  truth: Ledger;
}

const CASES: OutcomeCase[] = [
  {
    name: 'answered (429 retried, a response without usage)',
    run: runs.answered,
    ending: 'answered',
    truth: { outcome: 'ok', calls: 2, usageReports: 1, inputTokens: 1200, outputTokens: 300, costUsd: usd(CACHED_CALL_COST), callErrors: [] },
  },
  {
    name: 'stopped early (agent out of iterations)',
    run: runs.agentOutOfIterations,
    ending: 'stopped_early',
    truth: { outcome: 'stopped_early', calls: 2, usageReports: 2, inputTokens: 1000, outputTokens: 100, costUsd: usd(2 * runs.SCRIPTED_CALL_COST), callErrors: [] },
  },
  {
    name: 'stopped early (swarm out of hand-offs)',
    run: runs.swarmOutOfHandoffs,
    ending: 'stopped_early',
    truth: { outcome: 'stopped_early', calls: 1, usageReports: 1, inputTokens: 500, outputTokens: 50, costUsd: usd(runs.SCRIPTED_CALL_COST), callErrors: [] },
  },
  {
    name: 'failed (429, retries off)',
    run: runs.failed,
    ending: 'failed',
    truth: { outcome: 'error', calls: 1, usageReports: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, callErrors: ['429'] },
  },
  {
    name: 'cancelled (the caller aborts during the model call)',
    run: runs.cancelled,
    ending: 'cancelled',
    truth: { outcome: 'cancelled', calls: 1, usageReports: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, callErrors: ['aborted'] },
  },
  {
    name: 'paused (a tool asks a human)',
    run: runs.paused,
    ending: 'paused',
    truth: { outcome: 'paused', calls: 1, usageReports: 1, inputTokens: 500, outputTokens: 50, costUsd: usd(runs.SCRIPTED_CALL_COST), callErrors: [] },
  },
];

for (const scenario of CASES) {
  describe(`spans and metrics agree: ${scenario.name}`, () => {
    let telemetry: SemconvTelemetry;
    let fromSpans: Ledger;
    let fromMetrics: Ledger;
    let rollup: ReturnType<typeof rollupFromRunSpan>;
    let counters: ReturnType<typeof tokensFromCounters>;

    beforeAll(async () => {
      telemetry = startSemconvTelemetry({});
      expect(await scenario.run()).toBe(scenario.ending);
      fromSpans = ledgerFromSpans(telemetry.spans());
      rollup = rollupFromRunSpan(telemetry.spans());
      const exported = await telemetry.collectMetrics();
      fromMetrics = ledgerFromMetrics(exported);
      counters = tokensFromCounters(exported);
    });

    afterAll(async () => {
      await telemetry.shutdown();
    });

    it('metrics record what the spans record', () => {
      expect(fromMetrics).toEqual(fromSpans);
    });

    it("the current model's token counters hold the same tokens as the spans", () => {
      expect(counters).toEqual({ inputTokens: fromSpans.inputTokens, outputTokens: fromSpans.outputTokens });
    });

    it('the spans record what happened', () => {
      expect(fromSpans).toEqual(scenario.truth);
    });

    it('the run span rolls up its model calls', () => {
      expect(rollup).toEqual({ inputTokens: fromSpans.inputTokens, outputTokens: fromSpans.outputTokens, costUsd: fromSpans.costUsd });
    });
  });
}
