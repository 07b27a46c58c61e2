/**
 * The top of a `node --cpu-prof` profile: each function's self time and inclusive time (itself and
 * everything it called, a recursive frame counted once), as milliseconds and shares of all samples.
 * bench/mcpCpu.ts's header says how to make a profile for it.
 *
 *   npx tsx bench/cpuProfileTop.ts FILE.cpuprofile [top=40] [filter]
 */
import { frameFile, readCpuProfile, type ProfileNode } from './cpuProfile.js';

const [file, topArg = '40', filter] = process.argv.slice(2);
if (!file) throw new Error('usage: cpuProfileTop.ts FILE.cpuprofile [top] [filter]');
const profile = readCpuProfile(file);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);

const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${frameFile(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const node = byId.get(id)!;
  self.set(label(node), (self.get(label(node)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const name = label(byId.get(at)!);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
  }
});

const top = Number(topArg);
const show = (title: string, table: Map<string, number>) => {
  console.log(`${title} (total ${(total / 1000).toFixed(0)} ms)`);
  [...table]
    .filter(([name]) => !filter || name.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([name, t]) => console.log(`  ${(t / 1000).toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}`));
};
show('self', self);
show('inclusive', inclusive);
