/**
 * What one model reply of a given size costs the process (node --import tsx bench/replyMemory.ts
 * <MB>): a local server sends a Chat Completions JSON answer whose content is <MB> megabytes, chunked
 * as a real server sends it; one `complete()` reads it with the default maxResponseBytes. Prints the
 * outcome, the peak RSS growth (sampled every 5 ms) and the wall time. Run one size per process, so
 * each peak is that reply's alone; docs/streaming-providers.md gives the figures.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isProviderError, openaiCompatible } from '../src/runtime/providers/index.js';

const megabytes = Number(process.argv[2] ?? '100');
const piece = Buffer.alloc(64 * 1024, 'a');

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"id":"x","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"');
  let left = Math.ceil((megabytes * 1024 * 1024) / piece.length);
  res.on('close', () => (left = 0));
  const pump = () => {
    while (left > 0) {
      left--;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"}}]}');
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

const base = process.memoryUsage().rss;
let peak = base;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const started = performance.now();
let outcome: string;
try {
  const reply = await openaiCompatible({ baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 }).complete({ model: 'm', messages: [] });
  outcome = `read, ${reply.content.length} chars`;
} catch (error) {
  outcome = isProviderError(error) ? error.kind : String(error);
}
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(sampler);
console.log(JSON.stringify({ megabytes, outcome, peakRssGrowthMB: Math.round((peak - base) / 2 ** 20), ms: Math.round(performance.now() - started) }));
server.close();
server.closeAllConnections();
