/**
 * The environment of a stdio MCP server this process starts. The MCP SDK's default environment (PATH,
 * HOME and the like) alone leaves a traced server without the app's telemetry settings: with a
 * collector configured for the app, the server would export elsewhere and the trace would split. So
 * by default the server also gets this process's OTEL_* and FOOTPRINT_* variables, all but
 * OTEL_SERVICE_NAME (the server is a service of its own), read when it is started.
 */

/** Which of the app's settings a stdio server gets: default, the app's telemetry variables; false, none; a record, these instead. */
export type TelemetryEnv = false | Record<string, string>;

const INHERITED = /^(OTEL_|FOOTPRINT_)/;
const OWN_TO_EACH_SERVICE = new Set(['OTEL_SERVICE_NAME']);

/** This process's telemetry variables: every OTEL_* and FOOTPRINT_* one that is set, but OTEL_SERVICE_NAME. */
export function telemetryVariables(from: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(from).filter((entry): entry is [string, string] => INHERITED.test(entry[0]) && !OWN_TO_EACH_SERVICE.has(entry[0]) && entry[1] !== undefined),
  );
}

/** The SDK's defaults, then the telemetry settings, then the server's own `env` (each wins over the one before). */
export function serverEnvironment(
  sdkDefaults: Record<string, string>,
  telemetry: TelemetryEnv | undefined,
  own: Record<string, string> | undefined,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const settings = telemetry === false ? {} : (telemetry ?? telemetryVariables(from));
  return { ...sdkDefaults, ...settings, ...own };
}
