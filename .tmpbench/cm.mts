import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { Agent, scripted } from '/work/wt-stream-runtime/src/index.ts';
if (process.argv[2] === 'cm') context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const text = 'x'.repeat(500);
const agent = Agent.create({ provider: scripted({ chunkChars: 1, replies: [{ content: text, usage: { input: 1, output: 1 } }] }), model: 'm', id: 'a' }).build();
const out: string[] = [];
for (let r = 0; r < 6; r++) {
  let t = performance.now(); for (let i = 0; i < 40; i++) await agent.run('x'); const a = (performance.now() - t) / 40;
  t = performance.now(); for (let i = 0; i < 40; i++) { for await (const _ of agent.stream('x')); } const b = (performance.now() - t) / 40;
  out.push(`${(((b - a) * 1000) / 500).toFixed(1)}`);
}
console.log(process.argv[2] ?? 'none', 'µs/chunk per round:', out.join(' '));
