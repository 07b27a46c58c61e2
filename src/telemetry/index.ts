/**
 * footprint-otel/telemetry: startTelemetry() starts the OpenTelemetry NodeSDK with footprint-otel's
 * exporters (OTLP-JSON session files by default; OTLP or console as the standard variables say), and
 * readSpans() / scanSpans() read the trace files back. Apps that run their own SDK need none of this:
 * the runtime's instruments use whatever is registered with the OTel API.
 */
export { startTelemetry, type TelemetryHandle } from './start.js';
export { DEFAULT_FILE_DIRECTORY, type Destination, type StartTelemetryOptions } from './config.js';
export type { OtlpProtocol } from './exporters.js';
export { EndpointError } from './endpoint.js';
export { TelemetryAlreadyStartedError, TelemetryConfigError } from './errors.js';
export { totalLost, type SignalHealth, type TelemetryHealth } from './health.js';
export { describeCause, type LossCause } from './lossCause.js';
export { listSignalFiles } from './files/fileNames.js';
export {
  readSpans,
  scanSpans,
  spansOfTraceData,
  type FileSpanLink,
  TraceFileError,
  type TraceFileProblem,
  type FileSpan,
  type FileSpanEvent,
  type FileAttributes,
  type FileAttributeValue,
} from './files/read.js';
