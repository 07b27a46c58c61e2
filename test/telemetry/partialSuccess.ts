/**
 * OTLP partial-success answers, as a collector sends them (the OTLP specification, "Partial
 * Success"): an ExportTraceServiceResponse / ExportMetricsServiceResponse whose partial_success
 * names how many items were rejected and why, in OTLP JSON or protobuf. The protobuf is written by
 * hand: both responses are field 1 (partial_success) holding field 1 (the int64 count) and field 2
 * (error_message).
 */
export interface PartialSuccess {
  rejected: number | string;
  message: string;
}

export type SignalPath = '/v1/traces' | '/v1/metrics';

export function partialSuccessJson(path: string, answer: PartialSuccess): string {
  const count = path === '/v1/metrics' ? 'rejectedDataPoints' : 'rejectedSpans';
  return JSON.stringify({ partialSuccess: { [count]: answer.rejected, errorMessage: answer.message } });
}

export function partialSuccessProtobuf(answer: PartialSuccess): Buffer {
  const message = Buffer.from(answer.message, 'utf8');
  const inner = Buffer.concat([Buffer.from([0x08]), varint(Number(answer.rejected)), Buffer.from([0x12]), varint(message.length), message]);
  return Buffer.concat([Buffer.from([0x0a]), varint(inner.length), inner]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}
