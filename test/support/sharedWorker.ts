/**
 * Setup of every file of the shared project (vitest.config.ts). Files there share a worker and its
 * module state, so a file must leave no run instrument registered behind it: one left over changes
 * what the next file in that worker sees (the API-surface test, which checks that importing the
 * package registers none, failed whenever it came after a file that left its tracing registered).
 * Checked here, a leak fails the file that leaks it, every time, not a later file by chance.
 */
import { afterAll, expect } from 'vitest';
import { registeredInstruments } from '../../src/runtime/run/instruments.js';

afterAll(() => {
  expect([...registeredInstruments()].map((instrument) => instrument.id), 'run instruments this file left registered').toEqual([]);
});
