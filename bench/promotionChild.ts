/**
 * The child half of bench/promotion.ts: the reference turn in one mode (untraced, full, semantic),
 * warmed up, then PROMOTION_TURNS turns after the line the parent gives (argv[3]), which says where
 * the measured part starts. The parent starts it under --trace-gc-nvp, so V8 itself reports, per young-generation collection, the
 * bytes allocated since the last one and the bytes promoted to the old generation.
 */
import { registerInstrument, tracingInstrument, type TraceDetail } from '../src/index.js';
import { inProcessTracing } from './inProcessTracing.js';
import { MESSAGE, referenceAgent } from './scenario.js';

const [mode = 'untraced', measuredFrom = '--- measured'] = process.argv.slice(2);
const turns = Number(process.env.PROMOTION_TURNS ?? 4000);

const { provider } = inProcessTracing();
if (mode !== 'untraced') registerInstrument(tracingInstrument({ tracerProvider: provider, detail: mode as TraceDetail }));
const agent = referenceAgent();
for (let i = 0; i < 2000; i++) await agent.run(MESSAGE);
console.log(measuredFrom);
for (let i = 0; i < turns; i++) await agent.run(MESSAGE);
await provider.shutdown();
