/**
 * Scratch folders for one test file: made under the OS temp folder with a prefix that names the
 * test, and removed once the file's tests are done, so that runs of the suite leave nothing behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A maker of fresh folders named `prefix…`; every folder it made is removed after the file's tests. */
export function scratchFolders(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
