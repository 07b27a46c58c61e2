/** Module hooks for fromDist.mjs: a module resolved under src/ is loaded from dist/ (.ts -> .js), untransformed. */
import { readFile } from 'node:fs/promises';

const src = new URL('../src/', import.meta.url).href;
const dist = new URL('../dist/', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith(src)) return resolved;
  return { url: `${dist}${resolved.url.slice(src.length).replace(/\.ts$/, '.js')}`, format: 'module', shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith(dist)) return nextLoad(url, context);
  return { format: 'module', source: await readFile(new URL(url), 'utf8'), shortCircuit: true };
}
