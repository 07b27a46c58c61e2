/**
 * A collector that answers 200 with a partial success (the OTLP specification: the request was
 * accepted, but `rejected_spans` / `rejected_data_points` of its items were not) has lost those
 * items: over http/json, http/protobuf and gRPC, against receivers on 127.0.0.1 and the real OTLP
 * exporters, they count as lost by cause `rejected`, the rest as exported, and the collector's
 * message reaches the diag log once per signal. A count past the request's size is the whole
 * request; a partial success that rejects nothing is the collector's warning, logged, not a loss.
 */
import { diag, DiagLogLevel, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTelemetry, totalLost } from '../../src/telemetry/index.js';
import { METRICS_EXPORT, startGrpcReceiver, type GrpcReceiver } from './grpcReceiver.js';
import { partialSuccessJson, partialSuccessProtobuf, type PartialSuccess } from './partialSuccess.js';
import { startReceiver, type Receiver } from './receiver.js';

/** What footprint-otel logged (the OTLP exporters log their own "Received Partial Success response" beside it). */
const logged: string[] = [];
const log = (message: string) => void (message.startsWith('footprint-otel:') && logged.push(message));
diag.setLogger({ error: log, warn: log, info() {}, debug() {}, verbose() {} }, DiagLogLevel.WARN);

let http: Receiver;
let grpc: GrpcReceiver;
beforeAll(async () => {
  http = await startReceiver();
  grpc = await startGrpcReceiver();
});
afterAll(async () => {
  await http.stop();
  await grpc.stop();
});
afterEach(() => {
  vi.unstubAllEnvs();
  logged.length = 0;
  http.reply = { status: 200 };
  grpc.answer = () => Buffer.alloc(0);
});

const SPANS = { rejected: 2, message: '2 spans had too many attributes' };
const POINTS = { rejected: 1, message: 'unit {USD} not allowed' };

/** Answers every export of both signals with these partial successes, in the protocol's encoding. */
function answerPartially(protocol: string, spans: PartialSuccess, points: PartialSuccess): string {
  vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', protocol);
  const of = (path: string) => (path.endsWith('metrics') || path === METRICS_EXPORT ? points : spans);
  if (protocol === 'grpc') {
    grpc.answer = (path) => partialSuccessProtobuf(of(path));
    return grpc.url;
  }
  http.reply = { status: 200, body: (path, json) => (json ? partialSuccessJson(path, of(path)) : partialSuccessProtobuf(of(path))) };
  return http.url;
}

/** Five spans and the telemetry's own metrics, exported once at shutdown. */
async function exportFiveSpans(endpoint: string) {
  const telemetry = startTelemetry({ endpoint, metricExportIntervalMs: 600_000, handleExit: false });
  for (let i = 0; i < 5; i++) trace.getTracer('partial-success-test').startSpan(`span ${i}`).end();
  await telemetry.shutdown();
  return telemetry.health();
}

describe.each(['http/json', 'http/protobuf', 'grpc'])('a partial success over %s', (protocol) => {
  it('counts the rejected spans and data points as lost (rejected), the rest as exported, with the collector’s message', async () => {
    const health = await exportFiveSpans(answerPartially(protocol, SPANS, POINTS));
    expect(health.spans).toMatchObject({ exported: 3, lost: { rejected: 2 }, inFlight: 0 });
    expect(health.metricPoints.lost).toEqual({ rejected: 1 });
    expect(health.metricPoints.inFlight).toBe(0);
    expect(logged).toEqual([
      'footprint-otel: the collector accepted a traces export but rejected 2 of its 5 spans ("2 spans had too many attributes"); ' +
        'spans lost this way are counted in otel.sdk.exporter.span.exported{error.type="rejected"} and not logged again',
      `footprint-otel: the collector accepted a metrics export but rejected 1 of its ${health.metricPoints.exported + 1} metric data points ("unit {USD} not allowed"); ` +
        'metric data points lost this way are counted in otel.sdk.exporter.metric_data_point.exported{error.type="rejected"} and not logged again',
    ]);
  });
});

describe('what a collector may claim', () => {
  it('a count past the request is the whole request, never more; a count that is no number rejects nothing', async () => {
    const health = await exportFiveSpans(answerPartially('http/json', { rejected: '9999999999', message: 'all of it' }, { rejected: 'many', message: 'odd' }));
    expect(health.spans).toMatchObject({ exported: 0, lost: { rejected: 5 }, inFlight: 0 });
    expect(totalLost(health.metricPoints)).toBe(0);
  });

  it('a partial success rejecting nothing is a warning: logged with its message, nothing lost', async () => {
    const health = await exportFiveSpans(answerPartially('http/protobuf', { rejected: 0, message: 'slow down' }, { rejected: 0, message: '' }));
    expect(health.spans).toMatchObject({ exported: 5, lost: {}, inFlight: 0 });
    expect(health.metricPoints.lost).toEqual({});
    expect(logged).toEqual(['footprint-otel: the collector accepted a traces export with a warning ("slow down")']);
  });

  it('the message is quoted with control characters escaped and cut to 200 characters', async () => {
    await exportFiveSpans(answerPartially('http/json', { rejected: 1, message: `\u001b]0;pwned\u0007${'x'.repeat(500)}` }, { rejected: 0, message: '' }));
    expect(logged[0]).toBe(
      `footprint-otel: the collector accepted a traces export but rejected 1 of its 5 spans ("\\u001b]0;pwned\\u0007${'x'.repeat(189)}…"); ` +
        'spans lost this way are counted in otel.sdk.exporter.span.exported{error.type="rejected"} and not logged again',
    );
  });
});
