/**
 * Which test files run in a worker of their own. Most of the fast suite shares workers (no module
 * re-evaluation per file: about 40% of the suite's CPU time on these 2-core machines), which is safe
 * only for files that leave no process-wide state behind. A file that sets process-wide state
 * (OTel's global providers, propagator or diag logger, startTelemetry, environment variables) runs
 * isolated, and so does one that asserts the absence of such state. vitest.config.ts reads this list;
 * test/architecture/isolation.test.ts checks that every file setting such state is on it. Run
 * instruments are the one process-wide state shared files may set, when they undo it:
 * sharedWorker.ts fails a file that leaves one registered.
 */

/** Code that sets process-wide state in a test file. */
export const SETS_GLOBAL_STATE =
  /startTelemetry\(|process\.env\.[A-Z_]+ *=[^=]|process\.env\[[^\]]+\] *=[^=]|delete process\.env|vi\.stubEnv|setGlobalTracerProvider|setGlobalMeterProvider|setGlobalContextManager|propagation\.setGlobal|diag\.setLogger/;

export const ISOLATED_TESTS = [
  // assert that no SDK is registered, so nothing another file left may be there
  'test/scenarios/noSdk.test.ts',
  // mocks node:fs/promises under the modules it loads (vi.mock takes effect in a fresh module graph only)
  'test/telemetry/fullDisk.test.ts',
  // moves the project clock forward (events/clock.ts), which every later file in its worker would read
  'test/scenarios/wallClockStep.test.ts',
  // set process-wide state themselves (SETS_GLOBAL_STATE)
  'test/bench/spanTree.test.ts',
  'test/mcp/environment.test.ts',
  'test/mcp/server.test.ts',
  'test/mcp/revisions.test.ts',
  'test/scenarios/cancelledTool.test.ts',
  'test/otel/metrics/prometheusOtlp.test.ts',
  'test/scenarios/otlp.test.ts',
  'test/scenarios/lineageLimit.test.ts',
  'test/otel/placement/activation.test.ts',
  'test/scenarios/pii.test.ts',
  'test/scenarios/safety.test.ts',
  'test/scenarios/semantic.test.ts',
  'test/scenarios/semconvSpans.test.ts',
  'test/otel/encoding/units.test.ts',
  'test/reliability/collector.test.ts',
  'test/reliability/payloads.property.test.ts',
  'test/security/secrets.property.test.ts',
  'test/security/telemetryFiles.test.ts',
  'test/security/thrownText.test.ts',
  'test/telemetry/burst.test.ts',
  'test/telemetry/config.test.ts',
  'test/telemetry/exporters.test.ts',
  'test/telemetry/files.test.ts',
  'test/telemetry/health.test.ts',
  'test/telemetry/otlp.test.ts',
  'test/telemetry/outage.test.ts',
  'test/telemetry/partialSuccess.test.ts',
  'test/telemetry/sdk.test.ts',
];
