/**
 * What a run resolves to, in a file of its own: the runner returns it, and a stream (runStream.ts,
 * streamParts.ts) carries it, without either importing the other.
 */
import type { Paused } from './checkpoint.js';

export type RunResult = string | Paused;
