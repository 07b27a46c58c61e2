/**
 * No import cycle in src/, type-only imports included: a cycle of types still ties files together
 * (neither can be read, moved or split without the other). Each strongly connected group of files
 * found is named.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every relative import of every file, as paths under src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const specs = [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
    graph.set(relative(SRC, file), specs.map((spec) => relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts')));
  }
  return graph;
}

/** The groups of two or more files that import each other, directly or around (Tarjan's strongly connected components). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports', () => {
  it('form no cycle in src/, type-only ones included', () => {
    const graph = importGraph();
    expect(['runtime/run/runner.ts', 'runtime/skills/loopGuard.ts', 'runtime/providers/types.ts'].map((file) => graph.has(file))).toEqual([true, true, true]);
    expect(cycles(graph)).toEqual([]);
  });

  it('a cycle, direct or around, is found and named (positive control)', () => {
    const graph = new Map([
      ['skills/loopGuard.ts', ['skills/pingPong.ts']],
      ['skills/pingPong.ts', ['skills/loopGuard.ts']],
      ['run/runner.ts', ['run/runStream.ts']],
      ['run/runStream.ts', ['run/streamParts.ts']],
      ['run/streamParts.ts', ['run/runner.ts']],
      ['run/ids.ts', []],
    ]);
    expect(cycles(graph)).toEqual([
      ['skills/loopGuard.ts', 'skills/pingPong.ts'],
      ['run/runStream.ts', 'run/runner.ts', 'run/streamParts.ts'],
    ]);
  });
});
