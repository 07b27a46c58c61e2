/**
 * footprint-otel/telemetry: startTelemetry() starts the OpenTelemetry NodeSDK with footprint-otel's
 * exporters (OTLP-JSON files by default; OTLP or console as the standard variables say), and
 * readSpans() reads the trace file back. Apps that run their own SDK need none of this: the runtime's
 * instruments use whatever is registered with the OTel API.
 */
export { startTelemetry, type TelemetryHandle } from './start.js';
export { DEFAULT_FILE_DIRECTORY, type Destination, type StartTelemetryOptions } from './config.js';
export type { OtlpProtocol } from './exporters.js';
export { EndpointError } from './endpoint.js';
export type { TelemetryHealth } from './health.js';
export { readSpans, type FileSpan, type FileSpanEvent, type Attributes, type AttributeValue } from './files/read.js';
