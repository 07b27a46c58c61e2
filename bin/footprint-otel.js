#!/usr/bin/env node
// The footprint-otel CLI: runs the compiled CLI in dist/ with plain node (npm run build makes it in a
// clone; the published package ships it). Stack traces point into the TypeScript sources.
process.setSourceMapsEnabled(true);
await import('../dist/cli/main.js');
