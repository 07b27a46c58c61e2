import { Agent, scripted } from '/work/wt-stream-runtime/src/index.ts';
const text = 'x'.repeat(500);
const p = scripted({ chunkChars: 1, replies: [{ content: text, usage: { input: 1, output: 1 } }] });
const agent = Agent.create({ provider: p, model: 'm', id: 'a' }).build();
const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };
for (let r = 0; r < 6; r++) {
  let t = performance.now(); for (let i = 0; i < 40; i++) { for await (const _ of p.stream!(req)); } const bare = (performance.now() - t) / 40;
  t = performance.now(); for (let i = 0; i < 40; i++) await agent.run('x'); const a = (performance.now() - t) / 40;
  t = performance.now(); for (let i = 0; i < 40; i++) { for await (const _ of agent.stream('x')); } const b = (performance.now() - t) / 40;
  console.log(`bare provider ${(bare*1000/500).toFixed(1)} µs/chunk; run ${a.toFixed(2)}ms; stream-run ${(((b - a) * 1000) / 500).toFixed(1)} µs/chunk`);
}
