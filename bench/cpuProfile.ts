/**
 * What bench/profile.ts and bench/cpuProfileTop.ts read from a `node --cpu-prof` file: its nodes and
 * samples, and the file a frame's code is in, as their tables print it.
 */
import { readFileSync } from 'node:fs';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export const readCpuProfile = (file: string): CpuProfile => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

/** A frame's file: relative to the repository, or from inside node_modules for a dependency. */
export const frameFile = (url: string): string =>
  url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '').replace(/^.*node_modules\//, '');
