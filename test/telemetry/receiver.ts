/**
 * A stand-in OTLP/HTTP receiver on 127.0.0.1 for the telemetry tests: it records every request (path,
 * headers, raw body) and answers as the test says — 200, another status (with headers, or with a body
 * of the test's own, e.g. a partial success), or never —
 * and it can be stopped and started again on the same port to play a collector that goes down.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: (path: string, json: boolean) => Buffer | string } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered (default 200). */
  reply: Reply;
  of(path: string): Received[];
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  let server: Server | undefined;
  const receiver: Receiver = {
    url: '',
    received,
    reply: { status: 200 },
    of: (path) => received.filter((r) => r.path === path),
    async stop() {
      if (!server) return;
      const closing = server;
      server = undefined;
      for (const res of hanging) res.destroy();
      hanging.clear();
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    restart: () => listen(Number(new URL(receiver.url).port)),
  };
  const listen = async (port: number) => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        const reply = receiver.reply;
        if (reply === 'hang') {
          hanging.add(res);
          return;
        }
        const json = req.headers['content-type'] === 'application/json';
        res.writeHead(reply.status, { 'content-type': json ? 'application/json' : 'application/x-protobuf', ...reply.headers });
        res.end(reply.body ? reply.body(req.url ?? '', json) : json && reply.status < 300 ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  };
  await listen(0);
  return receiver;
}
