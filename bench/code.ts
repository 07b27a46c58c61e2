/**
 * Which code a benchmark measures: by default what the package ships, dist/ (built here, then loaded
 * in place of src/ by bench/fromDist.mjs); BENCH_FROM=src measures the sources through tsx instead.
 * bench/run.ts, bench/profile.ts and bench/promotion.ts start their children with these node flags.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface MeasuredCode {
  /** Node flags that load the measured code for a child started with `--import tsx`. */
  flags: string[];
  label: string;
}

export async function prepareMeasuredCode(): Promise<MeasuredCode> {
  if (process.env.BENCH_FROM === 'src') return { flags: [], label: 'src/ through tsx' };
  // A parent benchmark that built dist/ already (bench/run.ts) says so: its children do not build it again.
  if (process.env.BENCH_BUILT !== '1') await promisify(execFile)('npm', ['run', 'build'], { maxBuffer: 1 << 24 });
  return { flags: ['--import', './bench/fromDist.mjs'], label: 'dist/ (tsc output, as shipped)' };
}
