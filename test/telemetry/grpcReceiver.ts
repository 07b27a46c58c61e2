/**
 * A stand-in OTLP/gRPC receiver on 127.0.0.1: the trace and metrics Export methods, taking the
 * request bytes as they come and answering with the bytes the test gives (an empty response, or a
 * partial success), so the real gRPC exporters can be tested without a collector.
 */
import { Server, ServerCredentials, type Metadata, type ServiceDefinition } from '@grpc/grpc-js';

export interface GrpcReceiver {
  url: string;
  /** Request bodies received, by method path, with the request's metadata (the gRPC headers). */
  received: { path: string; body: Buffer; metadata: Record<string, string> }[];
  /** The response bytes for a request to this method path (default: empty, full success). */
  answer: (path: string) => Buffer;
  stop(): Promise<void>;
}

export const TRACE_EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
export const METRICS_EXPORT = '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export';

export async function startGrpcReceiver(): Promise<GrpcReceiver> {
  const server = new Server();
  const receiver: GrpcReceiver = {
    url: '',
    received: [],
    answer: () => Buffer.alloc(0),
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
  const raw = (bytes: Buffer) => bytes;
  for (const path of [TRACE_EXPORT, METRICS_EXPORT]) {
    const service: ServiceDefinition = {
      Export: { path, requestStream: false, responseStream: false, requestSerialize: raw, requestDeserialize: raw, responseSerialize: raw, responseDeserialize: raw },
    };
    server.addService(service, {
      Export: (call: { request: Buffer; metadata: Metadata }, callback: (error: null, response: Buffer) => void) => {
        const metadata = Object.fromEntries(Object.entries(call.metadata.getMap()).map(([key, value]) => [key, String(value)]));
        receiver.received.push({ path, body: call.request, metadata });
        callback(null, receiver.answer(path));
      },
    });
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  receiver.url = `http://127.0.0.1:${port}`;
  return receiver;
}
