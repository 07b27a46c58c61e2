/**
 * Setup of every file of the shared project (vitest.config.ts). Files there share a worker, its
 * module state and its environment, so a file must leave behind neither a run instrument registered
 * nor an OTEL_ or FOOTPRINT_ variable changed: either changes what the next file in that worker
 * sees (the API-surface test, which checks that importing the package registers no instrument,
 * failed whenever it came after a file that left its tracing registered; the exit test's children
 * inherited a 50 ms batch delay from the MCP tests' world). Checked here, a leak fails the file that
 * leaks it, every time, not a later file by chance.
 */
import { afterAll, expect } from 'vitest';
import { registeredInstruments } from '../../src/runtime/run/instruments.js';
import { COMPILED_MARK } from './compiled.js';

const telemetryEnv = () => Object.fromEntries(Object.entries(process.env).filter(([key]) => /^(OTEL_|FOOTPRINT_)/.test(key) && key !== COMPILED_MARK));
const envAtStart = telemetryEnv();

afterAll(() => {
  expect([...registeredInstruments()].map((instrument) => instrument.id), 'run instruments this file left registered').toEqual([]);
  expect(telemetryEnv(), 'OTEL_ and FOOTPRINT_ variables this file changed').toEqual(envAtStart);
});
