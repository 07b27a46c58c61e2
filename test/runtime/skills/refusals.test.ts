/**
 * Configuration that cannot work is refused at build time, with a message that says what to fix:
 * skill graphs, brains, the reserved read_skill tool, the route recorder's options, and route-guard
 * options that nothing would act on.
 */
import { describe, expect, it } from 'vitest';
import { Agent, ConfigError, defineSkill, scripted, skillGraph } from '../../../src/index.js';
import { skillPathRecorder } from '../../../src/recorders/index.js';

const agentProvider = scripted({ name: 'small', replies: ['ok'] });
const foreign = scripted({ name: 'other-vendor', replies: ['ok'] });
const a = defineSkill({ id: 'a', description: 'Skill a', body: 'A.' });
const b = defineSkill({ id: 'b', description: 'Skill b', body: 'B.' });
const graph = skillGraph().entry(a).edge(a, b).build();
const agent = () => Agent.create({ provider: agentProvider, model: 'small-1', id: 'desk' });

function refusal(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('skill graph refusals', () => {
  it('no entry', () => {
    expect(refusal(() => skillGraph().skill(a).build())).toBe('skill graph: no entry skill (call .entry(skill))');
  });

  it('duplicate ids', () => {
    const twin = defineSkill({ id: 'a', description: 'Another a', body: 'A2.' });
    expect(refusal(() => skillGraph().entry(a).edge(a, twin).build())).toBe(
      'skill graph: two different skills share the id "a"',
    );
  });

  it('dangling edge ids', () => {
    expect(refusal(() => skillGraph().entry(a).edge(a, 'ghost').build())).toBe(
      'skill graph: edge a -> ghost names "ghost", which is not a skill of the graph',
    );
    expect(refusal(() => skillGraph().entry(a).skill(b).edge('nowhere', b).build())).toBe(
      'skill graph: edge nowhere -> b names "nowhere", which is not a skill of the graph',
    );
  });

  it('unreachable skills', () => {
    const c = defineSkill({ id: 'c', description: 'Skill c', body: 'C.' });
    expect(refusal(() => skillGraph().entry(a).edge(a, b).skill(c).edge(c, a).build())).toBe(
      'skill graph: "c" cannot be reached from the entry "a"',
    );
  });
});

describe('brain refusals', () => {
  it('a brain for a skill the graph does not have', () => {
    expect(refusal(() => agent().skillGraph(graph, { providers: { ghost: { model: 'big-1' } } }).build())).toBe(
      'skill brains: "ghost" has a brain but is not a skill of the graph',
    );
  });

  it('two homes that disagree', () => {
    const own = defineSkill({ id: 'b', description: 'Skill b', body: 'B.', model: 'big-1' });
    const g = skillGraph().entry(a).edge(a, own).build();
    expect(refusal(() => agent().skillGraph(g, { providers: { b: { model: 'fix-1' } } }).build())).toBe(
      `skill brains: "b" has a brain in defineSkill and a different one in the graph's providers map; keep one`,
    );
    // Saying the same thing twice is fine.
    expect(() => agent().skillGraph(g, { providers: { b: { model: 'big-1' } } }).build()).not.toThrow();
  });

  it('a foreign provider without a model', () => {
    const own = defineSkill({ id: 'b', description: 'Skill b', body: 'B.', provider: foreign });
    const g = skillGraph().entry(a).edge(a, own).build();
    expect(refusal(() => agent().skillGraph(g).build())).toBe(
      `skill "b": a provider other than the agent's needs a model`,
    );
    expect(refusal(() => agent().skillGraph(graph, { escalation: { provider: foreign, afterRefusals: 2 } }).build())).toBe(
      `the escalation brain: a provider other than the agent's needs a model`,
    );
  });

  it('afterRefusals below 1', () => {
    for (const afterRefusals of [0, -1, 1.5, NaN, 1e9]) {
      expect(refusal(() => agent().skillGraph(graph, { escalation: { provider: foreign, model: 'x', afterRefusals } }).build())).toBe(
        `escalation: afterRefusals must be a whole number from 1 to 1000 (got ${afterRefusals})`,
      );
    }
  });
});

describe('agent refusals', () => {
  const readSkill = { name: 'read_skill', description: 'mine', inputSchema: { type: 'object' }, execute: () => '' };

  it('a tool named read_skill', () => {
    expect(refusal(() => agent().tool(readSkill).build())).toBe('agent "desk": "read_skill" is reserved for skill graphs');
    const sneaky = defineSkill({ id: 'b', description: 'Skill b', body: 'B.', tools: [readSkill] });
    expect(refusal(() => agent().skillGraph(skillGraph().entry(a).edge(a, sneaky).build()).build())).toBe(
      'skill "b": "read_skill" is reserved for skill graphs',
    );
  });

  it("onTrip 'escalate' without an escalation brain", () => {
    expect(refusal(() => agent().skillGraph(graph, { onTrip: 'escalate' }).build())).toBe(
      `agent "desk": onTrip 'escalate' needs an escalation brain (skillGraph options.escalation)`,
    );
  });

  it('route-guard options need no route recorder: the guard is the agent\'s', () => {
    expect(() => agent().skillGraph(graph, { onTrip: 'stop' }).build()).not.toThrow();
    expect(() => agent().skillGraph(graph).build()).not.toThrow();
    expect(() => agent().skillGraph(graph, { skillPathRecorder: skillPathRecorder() }).build()).not.toThrow();
  });
});

describe('loop-guard refusals', () => {
  it('refuses windows, caps and actions that cannot work', () => {
    expect(refusal(() => agent().skillGraph(graph, { pingPongWindow: 1 }).build())).toBe(
      'skillGraph options: pingPongWindow must be a whole number from 2 to 1000 (got 1)',
    );
    expect(refusal(() => agent().skillGraph(graph, { pingPongWindow: 2.5 }).build())).toBe(
      'skillGraph options: pingPongWindow must be a whole number from 2 to 1000 (got 2.5)',
    );
    expect(refusal(() => agent().skillGraph(graph, { maxRejectedRetries: 0 }).build())).toBe(
      'skillGraph options: maxRejectedRetries must be a whole number from 1 to 1000 (got 0)',
    );
    expect(refusal(() => agent().skillGraph(graph, { onTrip: 'panic' as never }).build())).toBe(
      'skillGraph options: onTrip must be one of label, stop, escalate (got panic)',
    );
  });
});
