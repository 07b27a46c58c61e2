/**
 * A real node:http server on 127.0.0.1 (port 0) for the provider tests: it records every request
 * exactly as it arrived (method, path, headers, JSON body), notices when a client drops the
 * connection before an answer, and lets each test script the answers — including never answering,
 * and a body written as raw bytes in chosen pieces with pauses between them, cut by a reset.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  json: unknown;
  /** Resolves if the connection closes before this request got a complete answer. */
  droppedByClient: Promise<void>;
}

export interface WireServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Answer = (request: SeenRequest, res: ServerResponse, index: number) => void;

export async function startWireServer(answer: Answer): Promise<WireServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        json: text === '' ? undefined : JSON.parse(text),
        droppedByClient: new Promise((resolve) => res.on('close', () => res.writableFinished || resolve())),
      };
      requests.push(seen);
      answer(seen, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** A 127.0.0.1 port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * One step of a body written piece by piece: bytes, a pause, a wait for something the test awaits
 * (e.g. the client having read what was written), or a connection reset (TCP RST).
 */
export type BodyStep = string | Uint8Array | { pauseMs: number } | { until: () => Promise<unknown> } | 'reset';

export interface BodyWritten {
  /** Body bytes handed to the socket before the body ended or the client went away. */
  bytes: number;
  /** True when every step was written (and the body ended, unless it was reset). */
  complete: boolean;
}

/**
 * Answers with `status` and `headers`, then writes `steps` in order, each string or byte piece as
 * its own write, honouring backpressure (a client that stops reading stops the writing), and stops
 * as soon as the client closes the connection.
 */
export async function writeBody(
  res: ServerResponse,
  steps: Iterable<BodyStep>,
  head: { status?: number; headers?: Record<string, string> } = {},
): Promise<BodyWritten> {
  res.writeHead(head.status ?? 200, head.headers ?? { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  let closed = false;
  const gone = new Promise<void>((resolve) => res.on('close', () => ((closed = true), resolve())));
  let bytes = 0;
  for (const step of steps) {
    if (closed) return { bytes, complete: false };
    if (step === 'reset') {
      res.socket?.resetAndDestroy();
      return { bytes, complete: true };
    }
    if (typeof step === 'object' && 'pauseMs' in step) {
      await Promise.race([new Promise((resolve) => setTimeout(resolve, step.pauseMs)), gone]);
      continue;
    }
    if (typeof step === 'object' && 'until' in step) {
      await Promise.race([step.until(), gone]);
      continue;
    }
    const chunk = typeof step === 'string' ? Buffer.from(step, 'utf8') : step;
    bytes += chunk.byteLength;
    if (!res.write(chunk)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
  }
  if (closed) return { bytes, complete: false };
  res.end();
  return { bytes, complete: true };
}
