/**
 * The tracing-overhead targets ("a traced agent turn within 2x of the engine-plus-SDK floor"), each
 * computed from one benchmark invocation and marked MET or MISSED with the measured value. The floor
 * of a turn is what footprintjs and the OTel SDK cost at their cheapest, as issue #40 defines it: the
 * spans the turn exports times the SDK's per-span floor, plus its stages times the engine's per-stage
 * floor on a linear chart (spans and stages counted in the real run, per detail). The two floor
 * targets grade the ratios read side by side (bench/floor.ts); the ratio of the modes' medians, each
 * mode a process of its own, is printed beside them (bench/run.ts). Issue #17's reading,
 * from round 2 when a turn's spans were its stages (stages x (engine + SDK span)), is printed beside
 * it as an earlier target: the turn now exports 13 spans from 7 stages, so it charges the SDK for 7.
 */
export interface Measured {
  /** Median µs per turn (per stage for engine-floor, per span for sdk-floor) by mode. */
  usPer: (mode: string) => number;
  /**
   * The floor ratios read side by side (bench/floor.ts: the turn and its floors timed in the same
   * seconds, the median of the rounds of every floor process), by detail: what the floor targets grade.
   */
  sideBySide: { full: number; semantic: number; rounds: number };
  stages: number;
  /** Spans one traced turn exports, by detail (counted at the exporter). */
  spans: { full: number; semantic: number };
  heapCurves: Record<string, { runs: number; heapMb: number }[]>;
  paced: { rate: number; runs: number; droppedSpans: number; failedExports: number; receivedSpans: number; spansPerRun: number };
}

export interface Target {
  name: string;
  met: boolean;
  /** The measured value, as printed. */
  measured: string;
}

/** Heap growth allowed from the first 10% of the runs to the end (about 12 bytes per run over 90k runs). */
export const FLAT_HEAP_MB = 1;

/** Issue #40's floor of a turn: the spans it exports x the SDK's span floor + its stages x the engine's stage floor (µs). */
export function turnFloorUs(spans: number, stages: number, sdkPerSpan: number, enginePerStage: number): number {
  return spans * sdkPerSpan + stages * enginePerStage;
}

/** The floor of a turn that exports `spans` spans, from the modes' medians (turnFloorUs). */
export function floorUs(m: Measured, spans: number): number {
  return turnFloorUs(spans, m.stages, m.usPer('sdk-floor'), m.usPer('engine-floor'));
}

/** A traced turn against its floor from the modes' medians, each mode a process of its own: the full or semantic turn / floorUs of the spans it exports. */
export function floorRatio(m: Measured, detail: 'full' | 'semantic'): number {
  return m.usPer(`${detail}-noop`) / floorUs(m, m.spans[detail]);
}

/** Issue #17's floor: stages x (engine + SDK span floor), one span counted per stage. */
export function stageFloorUs(m: Measured): number {
  return m.stages * (m.usPer('engine-floor') + m.usPer('sdk-floor'));
}

export function bridgeUsPerStage(m: Measured): number {
  return (m.usPer('full-noop') - m.usPer('untraced')) / m.stages;
}

export function overheadTargets(m: Measured): Target[] {
  const ratio = (value: number, limit: number, unit = 'x'): Pick<Target, 'met' | 'measured'> => ({
    met: value <= limit,
    measured: `${value.toFixed(2)}${unit} (limit ${limit}${unit})`,
  });
  const heapGrowth = (curve: { runs: number; heapMb: number }[]) => curve.at(-1)!.heapMb - curve[1]!.heapMb;
  const heap = Object.entries(m.heapCurves).map(([mode, curve]) => ({ mode, growth: heapGrowth(curve), slope: heapSlope(curve), runs: curve.at(-1)!.runs }));
  const expected = m.paced.runs * m.paced.spansPerRun;
  return [
    { name: `traced turn (full detail) <= 2x its engine+SDK floor (${m.spans.full} spans x SDK + ${m.stages} stages x engine), side by side over ${m.sideBySide.rounds} rounds`, ...ratio(m.sideBySide.full, 2) },
    { name: `traced turn (semantic detail) <= 2x its engine+SDK floor (${m.spans.semantic} spans x SDK + ${m.stages} stages x engine), side by side over ${m.sideBySide.rounds} rounds`, ...ratio(m.sideBySide.semantic, 2) },
    { name: `earlier (#17): traced turn (full detail) <= 2x ${m.stages} stages x (engine + SDK)`, ...ratio(m.usPer('full-noop') / stageFloorUs(m), 2) },
    { name: 'full detail <= 1.25x untraced', ...ratio(m.usPer('full-noop') / m.usPer('untraced'), 1.25) },
    { name: 'semantic detail <= 1.1x untraced', ...ratio(m.usPer('semantic-noop') / m.usPer('untraced'), 1.1) },
    { name: 'bridge cost per stage <= 3x the SDK span floor', ...ratio(bridgeUsPerStage(m) / m.usPer('sdk-floor'), 3) },
    {
      name: `heap flat (growth after the first 10% of runs <= ${FLAT_HEAP_MB} MB)`,
      met: heap.every((h) => h.growth <= FLAT_HEAP_MB),
      measured: heap
        .map((h) => `${h.mode} ${h.growth >= 0 ? '+' : ''}${h.growth.toFixed(2)} MB over ${h.runs / 1000}k runs (slope ${h.slope >= 0 ? '+' : ''}${(h.slope * 1024).toFixed(1)} KB per 10k runs)`)
        .join(', '),
    },
    {
      name: `no span lost at the documented rate (${m.paced.rate} runs/s)`,
      met: m.paced.droppedSpans === 0 && m.paced.failedExports === 0 && m.paced.receivedSpans === expected,
      measured: `${m.paced.receivedSpans} of ${expected} spans received, ${m.paced.droppedSpans} dropped, ${m.paced.failedExports} failed exports`,
    },
  ];
}

/**
 * The heap's least-squares slope, MB per 10,000 runs, over the samples after the first (the first
 * 10% of the runs warm caches and pools up): flat is about 0, a leak of 100 bytes per run is 0.95.
 */
export function heapSlope(curve: readonly { runs: number; heapMb: number }[]): number {
  const points = curve.slice(1);
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.runs, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.heapMb, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const p of points) {
    covariance += (p.runs - meanX) * (p.heapMb - meanY);
    variance += (p.runs - meanX) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 10_000;
}
