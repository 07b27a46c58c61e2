/**
 * Module hooks for fromDist.mjs: a module resolved under src/ is loaded from dist/ (.ts -> .js),
 * untransformed; or from the build folder BENCH_BUILD names (a copy of dist/ inside the repository,
 * so its imports of footprintjs and the OTel SDK resolve: bench/conversationAb.ts).
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

const src = new URL('../src/', import.meta.url).href;
const dist = process.env.BENCH_BUILD ? pathToFileURL(`${process.env.BENCH_BUILD}/`).href : new URL('../dist/', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith(src)) return resolved;
  return { url: `${dist}${resolved.url.slice(src.length).replace(/\.ts$/, '.js')}`, format: 'module', shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith(dist)) return nextLoad(url, context);
  return { format: 'module', source: await readFile(new URL(url), 'utf8'), shortCircuit: true };
}
