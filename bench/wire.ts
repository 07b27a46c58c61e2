/**
 * Bytes on the wire per traced demo run, OTLP http/json against http/protobuf: the compiled demo
 * (`node bin/footprint-otel.js demo`, so run `npm run build` first) exports to a receiver on
 * 127.0.0.1 that counts every byte its sockets receive (request lines, headers and bodies) and the
 * body bytes per signal. Same seed and run count for both protocols, so the runs are identical.
 *
 *   npx tsx bench/wire.ts [--runs 50]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' } } });
const runs = Number(values.runs);
const bin = path.resolve(import.meta.dirname, '..', 'bin', 'footprint-otel.js');

interface Count {
  wire: number;
  body: Record<string, number>;
  requests: Record<string, number>;
}

async function measure(protocol: 'http/json' | 'http/protobuf'): Promise<Count> {
  const count: Count = { wire: 0, body: {}, requests: {} };
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      const signal = req.url ?? '';
      count.body[signal] = (count.body[signal] ?? 0) + bytes;
      count.requests[signal] = (count.requests[signal] ?? 0) + 1;
      const json = req.headers['content-type'] === 'application/json';
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : '');
    });
  });
  server.on('connection', (socket) => socket.on('data', (chunk: Buffer) => (count.wire += chunk.length)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cwd = mkdtempSync(path.join(tmpdir(), 'footprint-wire-'));
  try {
    const env = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, NO_COLOR: '1' };
    const code = await new Promise<number | null>((resolve) => {
      spawn(process.execPath, [bin, 'demo', '--runs', String(runs), '--seed', '7'], { cwd, env, stdio: 'ignore' }).on('close', resolve);
    });
    if (code !== 0) throw new Error(`demo exited with ${code}`);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return count;
}

const results = { 'http/json': await measure('http/json'), 'http/protobuf': await measure('http/protobuf') };
console.log(`OTLP bytes on the wire, demo --runs ${runs} --seed 7 (same runs for both protocols), per run:`);
for (const [protocol, count] of Object.entries(results)) {
  const traces = count.body['/v1/traces'] ?? 0;
  const metrics = count.body['/v1/metrics'] ?? 0;
  console.log(
    `  ${protocol.padEnd(14)} traces ${(traces / runs).toFixed(0).padStart(6)} B/run body` +
      `   all bytes received ${(count.wire / runs).toFixed(0).padStart(6)} B/run` +
      `   (totals: traces ${traces} B in ${count.requests['/v1/traces'] ?? 0} requests, metrics ${metrics} B in ${count.requests['/v1/metrics'] ?? 0})`,
  );
}
const ratio = (results['http/json'].body['/v1/traces'] ?? 0) / (results['http/protobuf'].body['/v1/traces'] ?? 1);
console.log(`  traces: http/json is ${ratio.toFixed(2)}x http/protobuf`);
