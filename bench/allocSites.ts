/**
 * Where a turn's bytes are allocated, garbage included: V8's sampling heap profiler over the
 * reference turn (bench/scenario.ts) in each mode, counting the objects young and full collections
 * freed too (`node --heap-prof` keeps only what is still alive at the end, which for a turn is almost
 * nothing). Prints the bytes per turn by owner (footprintjs, the OTel SDK, our folders, Node) and the
 * allocation sites a traced turn adds to the untraced one, biggest first. bench/allocAb.ts compares
 * builds by their totals; this says which code allocates.
 *
 *   node --import tsx --import ./bench/fromDist.mjs bench/allocSites.ts [full|semantic] [top=30]
 *   (each mode in a process of its own: the untraced one, then the traced one)
 */
import { execFile } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { promisify } from 'node:util';
import { registerInstrument, tracingInstrument } from '../src/index.js';
import { inProcessTracing } from './inProcessTracing.js';
import { warmUp } from './measure.js';
import { MESSAGE, referenceAgent } from './scenario.js';

/** Bytes per turn by allocation site ("function file:line"). */
type Sites = Record<string, number>;
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children?: ProfileNode[];
}

const TURNS = 2000;
const [first = 'full', second = '30'] = process.argv.slice(2);

/** One mode's allocation sites, measured in this process. */
async function measure(mode: 'untraced' | 'full' | 'semantic'): Promise<Sites> {
  const { manager, provider } = inProcessTracing();
  const agent = referenceAgent();
  if (mode !== 'untraced') registerInstrument(tracingInstrument({ tracerProvider: provider, detail: mode }));
  await warmUp(() => agent.run(MESSAGE), 2);
  await provider.forceFlush();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  // Node 20's inspector types do not know the two flags yet; V8 11.3 reads them.
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as object);
  for (let i = 0; i < TURNS; i++) {
    await agent.run(MESSAGE);
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  await provider.forceFlush();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  session.disconnect();
  manager.disable();
  const sites: Sites = {};
  const walk = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.includes('/node_modules/') ? url.replace(/^.*\/node_modules\//, '') : url.replace(/^.*\/(dist|src|bench)\//, '$1/');
    const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    if (node.selfSize > 0) sites[site] = (sites[site] ?? 0) + node.selfSize / TURNS;
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile.head);
  return sites;
}

function owner(site: string): string {
  const file = site.slice(site.lastIndexOf(' ') + 1);
  if (file.startsWith('footprintjs/')) return 'footprintjs';
  if (file.startsWith('@opentelemetry/')) return 'otel sdk/api';
  const ours = /^(dist|src)\/([^/]+)\//.exec(file);
  if (ours) return `ours: src/${ours[2]}`;
  if (file.startsWith('node:')) return 'node';
  return 'engine built-ins';
}

const total = (sites: Sites) => Object.values(sites).reduce((sum, bytes) => sum + bytes, 0);

if (first === '--child') {
  process.stdout.write(`${JSON.stringify(await measure(second as 'untraced' | 'full' | 'semantic'))}\n`);
} else {
  const inChild = async (mode: string): Promise<Sites> => {
    const { stdout } = await promisify(execFile)(process.execPath, [...process.execArgv, process.argv[1]!, '--child', mode], { maxBuffer: 1 << 26 });
    return JSON.parse(stdout) as Sites;
  };
  const untraced = await inChild('untraced');
  const traced = await inChild(first);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const byOwner = (sites: Sites) => {
    const owners: Record<string, number> = {};
    for (const [site, bytes] of Object.entries(sites)) owners[owner(site)] = (owners[owner(site)] ?? 0) + bytes;
    return Object.entries(owners).sort((a, b) => b[1] - a[1]).map(([name, bytes]) => `${name} ${kb(bytes)}`).join(', ');
  };
  const added = Object.keys({ ...untraced, ...traced })
    .map((site) => [site, (traced[site] ?? 0) - (untraced[site] ?? 0)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(second));
  console.log(
    [
      `bytes allocated per turn, garbage included (V8's sampling heap profiler, ${TURNS} turns after a 2 s warm-up, each mode a process of its own):`,
      `  untraced ${kb(total(untraced))}: ${byOwner(untraced)}`,
      `  ${first} ${kb(total(traced))}: ${byOwner(traced)}`,
      `the sites the ${first} turn adds, bytes per turn (an inlined function's bytes may count at its caller's site):`,
      ...added.map(([site, bytes]) => `  ${kb(bytes).padStart(9)}  ${site}`),
    ].join('\n'),
  );
}
