import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Agent, scripted } from '/work/wt-stream-runtime/src/index.ts';
const text = 'x'.repeat(500);
const mk = () => Agent.create({ provider: scripted({ chunkChars: 1, replies: [{ content: text, usage: { input: 1, output: 1 } }] }), model: 'm', id: 'a' }).build();
const agent = mk();
const N = 60;
async function timeRun() { const t = performance.now(); for (let i = 0; i < N; i++) await agent.run('x'); return (performance.now() - t) / N; }
async function timeStream() { const t = performance.now(); for (let i = 0; i < N; i++) { for await (const _ of agent.stream('x')); } return (performance.now() - t) / N; }
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const res: Record<string, number[]> = { runU: [], streamU: [], runT: [], streamT: [] };
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
await timeRun(); await timeStream();
for (let round = 0; round < 7; round++) {
  trace.disable();
  res.runU.push(await timeRun()); res.streamU.push(await timeStream());
  trace.setGlobalTracerProvider(provider);
  res.runT.push(await timeRun()); res.streamT.push(await timeStream()); exporter.reset();
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const m = Object.fromEntries(Object.entries(res).map(([k, v]) => [k, med(v)]));
console.log(JSON.stringify(m));
console.log('untraced: stream/run ratio', (m.streamU / m.runU).toFixed(2), 'extra per chunk µs', (((m.streamU - m.runU) * 1000) / 500).toFixed(2));
console.log('traced:   stream/run ratio', (m.streamT / m.runT).toFixed(2), 'extra per chunk µs', (((m.streamT - m.runT) * 1000) / 500).toFixed(2));
console.log('tracing cost per chunk beyond complete (µs)', ((((m.streamT - m.streamU) - (m.runT - m.runU)) * 1000) / 500).toFixed(3));
