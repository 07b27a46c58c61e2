/**
 * `npm run bench:lineage` (issue #36: "lineage adds at most 3% to the traced reference turn"): the
 * reference turn (bench/scenario.ts) untraced, in full and in semantic detail, on the shipped build
 * (dist/) against the same build with lineage cut out (bench/lineageCut.ts: made from dist/ on every
 * run, under node_modules/.bench-lineage/cut), in ONE process, blocks interleaved
 * (bench/interleaved.ts; under --expose-gc, as the npm script runs it, each block starts on an empty
 * young generation and pays for the garbage it leaves), process CPU µs per turn, the median over
 * rounds of shipped / cut.
 *
 * What the cut removes: the input parts (callParts returns none), the origins kept beside every
 * conversation list and the origin records handed between members (run/lineage.ts), and every link,
 * part array and answer attribute of the bridge (RunLineage). What it leaves in: the calls into those
 * entry points, the callers' origin literals, llm_start's empty parts array, a hop's id, a tool
 * call's producer record, the RunLineage a traced run constructs. The cut build still pays those, so the ratio is a LOWER BOUND of
 * lineage's cost. Before timing, one turn of each build per mode is traced into an
 * InMemorySpanExporter (bench/lineageCheck.ts): the shipped build must list parts and emit links and
 * lineage attributes, the cut one none, both the same answer and spans; otherwise nothing is timed.
 *
 * The target is on the traced turn (full and semantic); the untraced ratio is printed beside it.
 * env: LINEAGE_ROUNDS (80; --quick 20), LINEAGE_BLOCK (40 turns). --json: one JSON line for bench/run.ts.
 */
import { loadavg } from 'node:os';
import { inProcessTracing } from './inProcessTracing.js';
import { interleaved, loadBuild, type Mode } from './interleaved.js';
import { checkLineageCut } from './lineageCheck.js';
import { makeLineageCut } from './lineageCut.js';
import { lineageSdkFloor, type SdkFloor } from './lineageSdkFloor.js';
import { median } from './measure.js';

const quick = process.argv.includes('--quick');
const ROUNDS = Number(process.env.LINEAGE_ROUNDS ?? (quick ? 20 : 80));
const BLOCK = Number(process.env.LINEAGE_BLOCK ?? 40);
/** Issue #36: lineage adds at most 3% to the traced reference turn. */
const LIMIT = 1.03;
const MODES: readonly Mode[] = ['untraced', 'full', 'semantic'];
const TARGETED_MODES = ['full', 'semantic'] as const;
const TARGETED: ReadonlySet<Mode> = new Set(TARGETED_MODES);
const SHIPPED = 'dist';
const CUT = 'node_modules/.bench-lineage/cut';

makeLineageCut(SHIPPED, CUT);
const { provider } = inProcessTracing();
const builds = [await loadBuild('cut', CUT), await loadBuild('shipped', SHIPPED)] as const;
const counts = await checkLineageCut(builds[1], builds[0], MODES);

const loadAtStart = loadavg()[0]!;
const { us, ratios } = await interleaved(builds, MODES, { block: BLOCK, rounds: ROUNDS, provider });
const sdkFloor = await lineageSdkFloor(builds[1], TARGETED_MODES, { block: BLOCK, rounds: ROUNDS, provider });
await provider.shutdown();

/** The value a quarter and three quarters of the way through the sorted values. */
const quartiles = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[Math.floor(sorted.length / 4)]!, sorted[Math.floor((sorted.length * 3) / 4)]!] as const;
};

/** What `--json` prints, for bench/run.ts. */
export interface LineageResult {
  rounds: number;
  block: number;
  /** Median process CPU µs per turn, by `${build} ${mode}`. */
  us: Record<string, number>;
  /** By mode: the median of shipped / cut over the rounds, and the rounds' quartiles. */
  ratios: Record<string, { median: number; quartiles: readonly [number, number] }>;
  targets: { name: string; value: number; limit: number; met: boolean }[];
  /**
   * By targeted mode: the OTel SDK alone replaying the shipped turn's spans with and without
   * lineage's links and attributes (bench/lineageSdkFloor.ts), and that difference as a share of the
   * shipped traced turn: what any implementation of this trace pays toward the 3%; the chat spans'
   * part tables' share beside it.
   */
  sdkFloor: Record<string, SdkFloor & { share: number; partTableShare: number }>;
  /** What one turn of each build emitted, by mode (the check before timing). */
  counts: typeof counts;
}

const result: LineageResult = {
  rounds: ROUNDS,
  block: BLOCK,
  us: Object.fromEntries(Object.entries(us).map(([name, xs]) => [name, median(xs)])),
  ratios: Object.fromEntries(Object.entries(ratios).map(([mode, xs]) => [mode, { median: median(xs), quartiles: quartiles(xs) }])),
  targets: MODES.filter((mode) => TARGETED.has(mode)).map((mode) => {
    const value = median(ratios[mode]!);
    return { name: `lineage adds at most 3% to the traced reference turn (${mode})`, value, limit: LIMIT, met: value <= LIMIT };
  }),
  counts,
  sdkFloor: Object.fromEntries(
    Object.entries(sdkFloor).map(([mode, floor]) => {
      const turn = median(us[`shipped ${mode}`]!);
      return [mode, { ...floor, share: floor.lineage / turn, partTableShare: floor.partTable / turn }];
    }),
  ),
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result));
} else {
  const percent = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
  console.log(
    [
      `lineage's cost (bench/lineage.ts): dist/ against dist/ with lineage cut out, one process, ${ROUNDS} interleaved rounds of ${BLOCK} turns, process CPU µs per turn (median); load ${loadAtStart.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
      `checked first, one turn each: ${MODES.map((mode) => `${mode} shipped ${counts[mode].shipped.parts} parts / ${counts[mode].shipped.links} links / ${counts[mode].shipped.lineageAttributes} lineage attributes, cut ${counts[mode].cut.parts} / ${counts[mode].cut.links} / ${counts[mode].cut.lineageAttributes}`).join('; ')}`,
      ...MODES.map((mode) => {
        const { median: ratio, quartiles: [low, high] } = result.ratios[mode]!;
        const line = `${mode.padEnd(9)} shipped ${result.us[`shipped ${mode}`]!.toFixed(0).padStart(4)} µs, cut ${result.us[`cut ${mode}`]!.toFixed(0).padStart(4)} µs: ${ratio.toFixed(3)}x (${percent(ratio)}; rounds' middle half ${low.toFixed(3)}-${high.toFixed(3)})`;
        return TARGETED.has(mode) ? `  ${ratio <= LIMIT ? 'MET   ' : 'MISSED'} ${line}` : `  (no target) ${line}`;
      }),
      'a lower bound: the cut build keeps the calls into lineage and the callers\' origin literals (bench/lineageCut.ts).',
      `the OTel SDK alone for lineage's links and attributes (the shipped turn's spans replayed with and without them, bench/lineageSdkFloor.ts): ${Object.entries(result.sdkFloor)
        .map(([mode, f]) => `${mode} ${f.withLineage.toFixed(1)} - ${f.withoutLineage.toFixed(1)} = ${f.lineage.toFixed(1)} µs, ${(f.share * 100).toFixed(1)}% of the traced turn (the chat spans' part tables ${(f.partTableShare * 100).toFixed(1)}% of it)`)
        .join('; ')}: what any implementation exporting this trace pays toward the 3%`,
    ].join('\n'),
  );
}
