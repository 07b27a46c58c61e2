/**
 * The child processes the tests start (the CLI, the MCP fixture servers, the resume and exit
 * fixtures) run compiled JavaScript under plain node, as the published package runs: through tsx's
 * loader every child spent about three times as long starting (its transform and resolve hooks over
 * the whole import graph), and the fast suite starts about a hundred. The global setup of each
 * vitest config compiles src/ and those fixtures once per `vitest run`, incrementally, with the
 * repository's own tsc (tsconfig.compiled.json, next to this file) into node_modules/.cache; then
 * compiled() names the .js file of a .ts source there.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = path.join(ROOT, 'node_modules', '.cache', 'footprint-otel-compiled');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const CONFIG = path.join(import.meta.dirname, 'tsconfig.compiled.json');

/** Set by the global setup once it compiled, for the test processes it starts. */
export const COMPILED_MARK = 'FOOTPRINT_OTEL_TEST_SOURCES_COMPILED';

/**
 * The compiled .js of a .ts file of the repository (absolute or relative to its root). Outside a
 * vitest run (a script of scripts/ using the stack clients), compiles first, once per process.
 */
export function compiled(source: string): string {
  if (process.env[COMPILED_MARK] !== '1') compileSources();
  const relative = path.relative(ROOT, path.resolve(ROOT, source));
  const output = path.join(OUT, relative.replace(/\.ts$/, '.js'));
  if (!existsSync(output)) throw new Error(`${relative} is not compiled: add it to test/support/tsconfig.compiled.json`);
  return output;
}

/**
 * vitest globalSetup: compiles before any test file runs. Type errors are the typecheck's business
 * (--noCheck); a file that does not parse fails the run here, with tsc's message.
 */
export default function compileSources(): void {
  try {
    execFileSync(process.execPath, [TSC, '-p', CONFIG, '--noCheck'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`compiling the sources the tests' child processes run failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  process.env[COMPILED_MARK] = '1';
}
