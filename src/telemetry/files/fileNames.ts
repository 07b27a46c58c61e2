/**
 * Where the file default puts its lines. Every writer (one per signal per startTelemetry) owns files
 * no other writer touches: `traces-<session>-<seq>.jsonl`, where the session is the start time, the
 * process id and a random tag, and seq counts the writer's rotations. So two processes sharing one
 * folder never interleave, and a file a killed process left with a torn last line is never appended
 * to. Names sort in the order they were started. `traces.jsonl` / `metrics.jsonl` (the naming before
 * sessions) are still read, before every session file.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export type FileSignal = 'traces' | 'metrics';

/** `20261130T101647123Z-4242-9f3a`: start time (UTC, ms), process id, a random tag. */
export function newSession(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${process.pid}-${randomBytes(2).toString('hex')}`;
}

export function sessionFileName(signal: FileSignal, session: string, seq: number): string {
  return `${signal}-${session}-${String(seq).padStart(4, '0')}.jsonl`;
}

const SESSION_FILE = /^(traces|metrics)-(\d{8}T\d{9}Z-\d+-[0-9a-f]+)-(\d{4,})\.jsonl$/;

/** The signal's files in a folder, oldest first (the legacy single file, then sessions by start). */
export async function listSignalFiles(directory: string, signal: FileSignal): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const legacy = names.filter((name) => name === `${signal}.jsonl`);
  const sessions = names.filter((name) => SESSION_FILE.exec(name)?.[1] === signal).sort(bySessionThenSeq);
  return [...legacy, ...sessions].map((name) => path.join(directory, name));
}

function bySessionThenSeq(a: string, b: string): number {
  const [, , sessionA, seqA] = SESSION_FILE.exec(a)!;
  const [, , sessionB, seqB] = SESSION_FILE.exec(b)!;
  if (sessionA !== sessionB) return sessionA! < sessionB! ? -1 : 1;
  return Number(seqA) - Number(seqB);
}
