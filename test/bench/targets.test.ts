/**
 * bench/targets.ts's floors and verdicts on fixed numbers: the floor of a traced turn is issue #40's
 * (the spans it exports x the SDK's span floor + its stages x the engine's stage floor), one per
 * detail; the targets grade the ratios read side by side (bench/floor.ts), and issue #17's
 * one-span-per-stage floor is still graded beside them, from the modes' medians.
 */
import { describe, expect, it } from 'vitest';
import { floorRatio, floorUs, overheadTargets, stageFloorUs, turnFloorUs, type Measured } from '../../bench/targets.js';

const US: Record<string, number> = {
  'engine-floor': 10,
  'sdk-floor': 1.5,
  untraced: 80,
  'full-noop': 178,
  'semantic-noop': 170,
};

const measured: Measured = {
  usPer: (mode) => US[mode]!,
  sideBySide: { full: 1.93, semantic: 2.04, rounds: 93 },
  stages: 7,
  spans: { full: 13, semantic: 6 },
  heapCurves: { traced: [{ runs: 0, heapMb: 30 }, { runs: 10_000, heapMb: 31 }, { runs: 100_000, heapMb: 31.5 }] },
  paced: { rate: 100, runs: 10, droppedSpans: 0, failedExports: 0, receivedSpans: 130, spansPerRun: 13 },
};

describe('the engine+SDK floor of a traced turn', () => {
  it('charges the SDK for every span the turn exports and the engine for every stage', () => {
    expect(floorUs(measured, 13)).toBe(13 * 1.5 + 7 * 10);
    expect(floorUs(measured, 6)).toBe(6 * 1.5 + 7 * 10);
    expect(floorUs(measured, 0)).toBe(70);
    expect(turnFloorUs(13, 7, 1.5, 10)).toBe(13 * 1.5 + 7 * 10);
    expect(stageFloorUs(measured)).toBe(7 * (10 + 1.5));
    expect(floorRatio(measured, 'full')).toBe(178 / (13 * 1.5 + 7 * 10));
    expect(floorRatio(measured, 'semantic')).toBe(170 / (6 * 1.5 + 7 * 10));
  });

  it('grades full and semantic detail by their side-by-side readings (bench/floor.ts), and the full turn against issue #17 floor from the medians', () => {
    const floors = overheadTargets(measured).slice(0, 3);
    expect(floors).toEqual([
      { name: 'traced turn (full detail) <= 2x its engine+SDK floor (13 spans x SDK + 7 stages x engine), side by side over 93 rounds', met: true, measured: '1.93x (limit 2x)' },
      { name: 'traced turn (semantic detail) <= 2x its engine+SDK floor (6 spans x SDK + 7 stages x engine), side by side over 93 rounds', met: false, measured: '2.04x (limit 2x)' },
      { name: 'earlier (#17): traced turn (full detail) <= 2x 7 stages x (engine + SDK)', met: false, measured: '2.21x (limit 2x)' },
    ]);
  });
});
