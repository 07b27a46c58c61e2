/**
 * Global setup of the consumer tests: `npm pack` the repository once (its prepare script builds dist/), into
 * a temporary folder, and hand the tarball's path to every test file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

declare module 'vitest' {
  export interface ProvidedContext {
    tarball: string;
  }
}

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), 'footprint-pack-'));
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', folder], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [packed] = JSON.parse(output.slice(output.indexOf('['))) as { filename: string }[];
  project.provide('tarball', path.join(folder, packed!.filename));
  return () => rmSync(folder, { recursive: true, force: true });
}
