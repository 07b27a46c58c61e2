#!/usr/bin/env node
// The footprint-otel CLI: runs the compiled CLI in dist/ with plain node (the published package ships
// it; in a clone of the repository, `npm run build` makes it). Stack traces point into the sources.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('footprint-otel: dist/ is missing; in a clone of the repository, run `npm run build` first');
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import(main.href);
