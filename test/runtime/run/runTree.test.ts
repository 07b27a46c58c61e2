/**
 * The run tree the runtime publishes to instruments (RunStart.tree): every member of a composed
 * runner with its path, kind, id, name, route, description, model settings, skill graph and where a
 * router's own model call mounts; one read-only object per runner, the same at every run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, defineSkill, llmSwarm, registerInstrument, scripted, skillGraph, type RunStart } from '../../../src/index.js';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** The trees instruments were handed, run by run. */
function treesSeen(): RunStart['tree'][] {
  const trees: RunStart['tree'][] = [];
  stops.push(registerInstrument({ id: 'test.run-tree', start: ({ tree }) => void trees.push(tree) }));
  return trees;
}

function desk() {
  const billing = Agent.create({ provider: scripted({ replies: ['billed'] }), model: 'bill-m', id: 'billing', name: 'Billing', temperature: 0.2 }).build();
  const triage = defineSkill({ id: 'triage', description: 'Sort the ticket', body: 'Sort.' });
  const tech = Agent.create({ provider: scripted({ replies: ['fixed'] }), model: 'tech-m', id: 'tech' }).skillGraph(skillGraph().entry(triage).build()).build();
  return llmSwarm({
    id: 'desk',
    provider: scripted({ replies: ['{"agent":"billing","reason":"invoice","message":"INV-42"}', '{"agent":null,"reason":"done","message":"billed"}'] }),
    model: 'router-m',
    agents: [
      { id: 'billing', description: 'Invoices and refunds.', runner: billing },
      { id: 'tech', description: 'Errors and outages.', runner: tech },
    ],
  });
}

describe('the run tree', () => {
  it('holds every member of a composed runner, as instruments see it', async () => {
    const trees = treesSeen();
    await desk().run('Was INV-42 charged twice?');
    const [tree] = trees;
    const summary = tree!.nodes.map(({ children, ...node }) => ({ ...node, children: children.map((child) => child.key) }));
    expect(summary).toEqual([
      { path: [], key: '', kind: 'swarm', id: 'desk', name: 'desk', route: '', description: undefined, profile: {}, skillGraph: false, modelCallMount: undefined, children: ['router', 'billing', 'tech'] },
      { path: ['router'], key: 'router', kind: 'router', id: 'router', name: 'router', route: '', description: undefined, profile: { provider: 'scripted', model: 'router-m', temperature: 0 }, skillGraph: false, modelCallMount: 'llm', children: [] },
      { path: ['billing'], key: 'billing', kind: 'agent', id: 'billing', name: 'Billing', route: 'desk>billing', description: 'Invoices and refunds.', profile: { provider: 'scripted', model: 'bill-m', temperature: 0.2 }, skillGraph: false, modelCallMount: undefined, children: [] },
      { path: ['tech'], key: 'tech', kind: 'agent', id: 'tech', name: 'tech', route: 'desk>tech', description: 'Errors and outages.', profile: { provider: 'scripted', model: 'tech-m' }, skillGraph: true, modelCallMount: undefined, children: [] },
    ]);
    expect(tree!.root).toBe(tree!.nodes[0]);
  });

  it('is one read-only object per runner, the same at every run', async () => {
    const trees = treesSeen();
    const runner = desk();
    await runner.run('first');
    await runner.run('second');
    expect(trees).toHaveLength(2);
    expect(trees[1]).toBe(trees[0]);
    const tree = trees[0]!;
    expect([Object.isFrozen(tree), Object.isFrozen(tree.nodes), Object.isFrozen(tree.root), Object.isFrozen(tree.root.children), Object.isFrozen(tree.root.profile), Object.isFrozen(tree.root.path)]).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});
