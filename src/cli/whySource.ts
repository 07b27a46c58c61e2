/**
 * Where `why` reads spans from: the telemetry files (whyFiles.ts) or a Jaeger's query API
 * (whyJaeger.ts). Both give spans in the one shape the file reader gives (FileSpan, links included),
 * so the walk does not know which it reads.
 */
import type { FileSpan } from '../telemetry/index.js';

export interface RunWanted {
  trace?: string;
  run?: string;
  /** A span to walk back from; without --trace or --run, the run is the one that holds it. */
  span?: string;
}

export interface WhySource {
  /** How messages name it: the path, or the Jaeger URL. */
  where: string;
  /** The trace (full id) of the run wanted; throws a CliError saying why none is. */
  chooseTrace(want: RunWanted): Promise<string>;
  /** The spans of each trace named, as read (an empty list: the trace is not there). */
  readTraces(traceIds: readonly string[]): Promise<Map<string, FileSpan[]>>;
  /** What was skipped while reading, for stderr. */
  warnings(): string[];
}
