/**
 * Two compiled builds of the package timed in ONE process, interleaved (bench/ab.ts, bench/lineage.ts):
 * the reference turn (bench/scenario.ts's, rebuilt on each build's own exports) per mode on each,
 * blocks alternating with the order flipped every round, process CPU µs per turn, and per round the
 * ratio build B / build A. On a machine shared with other work, a ratio measured this way is the one
 * number that means something: both builds see the same load. Both builds share footprintjs and the
 * OTel SDK (the caller's provider); what is process-wide (an enabled AsyncLocalStorage costs every
 * promise) hits both alike.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TracerProvider } from '@opentelemetry/api';
import { conversation, MESSAGE, referenceAgent } from './scenario.js';
import { cleanBlock } from './measure.js';
import type * as Package from '../src/index.js';

export type Mode = 'untraced' | 'full' | 'semantic';

export interface Build {
  name: string;
  /** The build's package entry, loaded from its own directory (its own module instances). */
  m: typeof Package;
  agent: ReturnType<typeof referenceAgent>;
}

/** The build in `dir` (its index.js), with its own reference agent. */
export async function loadBuild(name: string, dir: string): Promise<Build> {
  const m = (await import(pathToFileURL(resolve(dir, 'index.js')).href)) as typeof Package;
  return { name, m, agent: referenceAgent(m) };
}

export interface Interleaved {
  /** Process CPU µs per turn of each block, by `${build} ${mode}`. */
  us: Record<string, number[]>;
  /** Per round, B / A, by mode. */
  ratios: Record<string, number[]>;
}

/**
 * The run's input: the reference turn's one message, or with AB_CONVERSATION=n an n-message
 * conversation (bench/conversation.ts's), to compare what a longer conversation costs on each build.
 */
export const AB_INPUT = process.env.AB_CONVERSATION === undefined ? MESSAGE : conversation(Number(process.env.AB_CONVERSATION));

/** Process CPU µs per turn over `turns` turns of `mode` on `build` given `input` (traced into `provider`): a clean block (measure.ts). */
export function block(build: Build, mode: Mode, turns: number, provider: TracerProvider & { forceFlush(): Promise<void> }, input: string | ReturnType<typeof conversation> = AB_INPUT): Promise<number> {
  const traced = mode === 'untraced' ? undefined : () => build.m.registerInstrument(build.m.tracingInstrument({ tracerProvider: provider, detail: mode }));
  return cleanBlock(() => build.agent.run(input), turns, () => provider.forceFlush(), traced);
}

/** A warm-up of 300 turns per build and mode, then `rounds` rounds of one block per build and mode. */
export async function interleaved([a, b]: readonly [Build, Build], modes: readonly Mode[], { block: turns, rounds, provider }: { block: number; rounds: number; provider: TracerProvider & { forceFlush(): Promise<void> } }): Promise<Interleaved> {
  for (const build of [a, b]) for (const mode of modes) await block(build, mode, 300, provider);
  const ratios: Record<string, number[]> = {};
  const us: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      const order = round % 2 === 0 ? [a, b] : [b, a];
      const t = new Map<Build, number>();
      for (const build of order) {
        const perTurn = await block(build, mode, turns, provider);
        t.set(build, perTurn);
        (us[`${build.name} ${mode}`] ??= []).push(perTurn);
      }
      (ratios[mode] ??= []).push(t.get(b)! / t.get(a)!);
    }
  }
  return { us, ratios };
}
