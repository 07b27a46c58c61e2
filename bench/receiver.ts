/** A minimal OTLP/HTTP receiver on 127.0.0.1 for the benchmarks: counts requests, bytes and spans. */
import { createServer, type Server } from 'node:http';

export interface Receiver {
  url: string;
  stats: { requests: number; bytes: number; spans: number };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const stats = { requests: 0, bytes: 0, spans: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      stats.requests++;
      stats.bytes += body.length;
      if (req.url === '/v1/traces') {
        try {
          const parsed = JSON.parse(body.toString('utf8')) as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
          for (const rs of parsed.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) stats.spans += ss.spans?.length ?? 0;
        } catch {
          // protobuf or broken: counted as a request only
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    stats,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
