/**
 * The errors startTelemetry() throws, all at setup and before anything starts (once running,
 * telemetry never throws into the app): a setting no exporter can use, and a second start while one
 * runs. Each message is one line naming what is wrong and what to write or do instead.
 */

/** A telemetry setting (an environment variable or an option) that cannot work. */
export class TelemetryConfigError extends Error {
  override readonly name: string = 'TelemetryConfigError';
}

/**
 * startTelemetry() was called while a handle it returned is still running. Handing that handle back
 * would drop the new options unseen, and shutting "the second" down would stop the first.
 */
export class TelemetryAlreadyStartedError extends Error {
  override readonly name = 'TelemetryAlreadyStartedError';
}
