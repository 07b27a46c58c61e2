/**
 * The fast suite shares workers between test files (vitest.config.ts); a file that sets process-wide
 * state must run isolated, or it changes what the files after it in its worker see. This holds the
 * list in test/support/isolation.ts to the files themselves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TESTS, SETS_GLOBAL_STATE } from '../support/isolation.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SHARED_WORKER_FOLDERS = /^test\/(?!stack\/|package\/)/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [relative(ROOT, join(dir, entry.name))] : [],
  );
}

const files = testFiles(join(ROOT, 'test')).filter((file) => SHARED_WORKER_FOLDERS.test(file));
/** This file quotes the patterns as samples; it sets nothing. */
const SELF = relative(ROOT, import.meta.filename);

describe('test isolation', () => {
  it('every fast-suite file that sets process-wide state runs in a worker of its own', () => {
    const setting = files.filter((file) => file !== SELF && SETS_GLOBAL_STATE.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(setting.filter((file) => !ISOLATED_TESTS.includes(file))).toEqual([]);
  });

  it('the isolated list names only test files that exist', () => {
    expect(ISOLATED_TESTS.filter((file) => !files.includes(file))).toEqual([]);
  });

  it('recognises each kind of process-wide state (positive control)', () => {
    const samples = [
      'startTelemetry({ serviceName: "x" })',
      'process.env.OTEL_EXPORTER_OTLP_ENDPOINT = url',
      "process.env['FOOTPRINT_OTEL_DETAIL'] = 'full'",
      'delete process.env.OTEL_SDK_DISABLED',
      'trace.setGlobalTracerProvider(provider)',
      'metrics.setGlobalMeterProvider(provider)',
      'context.setGlobalContextManager(manager)',
      'propagation.setGlobalPropagator(propagator)',
      'diag.setLogger(logger)',
    ];
    expect(samples.filter((sample) => !SETS_GLOBAL_STATE.test(sample))).toEqual([]);
    expect(SETS_GLOBAL_STATE.test("if (process.env.CI === 'true') skip()")).toBe(false);
  });
});
