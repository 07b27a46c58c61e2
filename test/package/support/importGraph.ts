/**
 * The packages an entry point of the installed package loads: follows the static and dynamic imports
 * of the compiled JS from the entry, file by file inside the package, and collects every bare
 * specifier it reaches (node: built-ins left out), reduced to the package name.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

// A specifier holds no white space: so a comment's "export … collector's …" is never read as an import.
const IMPORT = /(?:^|[\s;])(?:import|export)\s*(?:[^'"`;]*?\sfrom\s*)?['"]([^'"\s]+)['"]|import\(\s*['"]([^'"\s]+)['"]\s*\)/g;

export function packagesImportedBy(entryFile: string): string[] {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2])!;
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(packageName(specifier));
    }
  };
  visit(entryFile);
  return [...packages].sort();
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
