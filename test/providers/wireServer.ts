/**
 * A real node:http server on 127.0.0.1 (port 0) for the provider tests: it records every request
 * exactly as it arrived (method, path, headers, JSON body), notices when a client drops the
 * connection before an answer, and lets each test script the answers — including never answering.
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
