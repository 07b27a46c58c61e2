/**
 * bench/receiver.ts in a process of its own, as a collector is in production: bench/mcp.ts starts
 * it so that receiving both processes' exports (HTTP, JSON parsing) does not run on the measured
 * client's event loop. Prints `{"url":…}` as its first stdout line; when its stdin ends, prints the
 * receiver's stats as a second line and exits.
 */
import { startReceiver } from './receiver.js';

const receiver = await startReceiver();
process.stdout.write(`${JSON.stringify({ url: receiver.url })}\n`);
process.stdin.on('end', () => {
  process.stdout.write(`${JSON.stringify(receiver.stats)}\n`);
  void receiver.close().then(() => process.exit(0));
});
process.stdin.resume();
