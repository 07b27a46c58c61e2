#!/usr/bin/env node
// The footprint-otel CLI. The package ships TypeScript sources; tsx runs them without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
