/**
 * The conventions' agent, tool and workflow metrics, from real runs: one record per agent
 * invocation (duration, model calls, tool calls, each its own and none of a nested agent's), one per
 * tool call, one per composition run, with exactly the attributes the catalog lists and error.type
 * only where the operation failed. The runs record in the both mode: each duration once under the
 * current model's gen_ai.invocation.duration (with the operation and whether it is nested) and once
 * under the v1.41-mode name (gen_ai.invoke_agent.duration, gen_ai.workflow.duration), the same value.
 */
import { describe, expect, it } from 'vitest';
import { Agent, Parallel, ProviderError, scripted, Sequence, type ScriptedReply } from '../../../src/index.js';
import { METRICS } from '../../../src/otel/metrics/index.js';
import { twoToolAgent } from '../../support/agents.js';
import { meteredRuns, only, type Collection } from '../../support/meter.js';

const meter = meteredRuns();

function agent(id: string, reply: ScriptedReply) {
  return Agent.create({ provider: scripted({ replies: [reply] }), model: `m-${id}`, id, name: id.toUpperCase() }).build();
}

/** A histogram series as [count, sum, per-bucket counts]. */
function shape(c: Collection, name: string, match: Record<string, string>) {
  const h = only(c, name, match).histogram!;
  return [h.count, h.sum, h.buckets.counts];
}

describe('an agent that calls tools', () => {
  it('records one invocation: three model calls, three tool calls, and its duration', async () => {
    expect((await twoToolAgent().run('Is invoice 42 paid?')).text).toBe('Invoice 42 is paid.');
    const c = await meter.collect();
    const helper = { 'gen_ai.agent.name': 'Helper', 'footprint.agent': 'helper' };
    // Buckets [1, 2, 4, …]: 3 falls in (2, 4].
    expect(shape(c, METRICS.invokeAgentInferenceCalls.name, helper)).toEqual([1, 3, [0, 0, 1, 0, 0, 0, 0, 0, 0]]);
    expect(shape(c, METRICS.invokeAgentToolCalls.name, helper)).toEqual([1, 3, [0, 0, 1, 0, 0, 0, 0, 0, 0]]);
    const duration = only(c, METRICS.invokeAgentDuration.name, helper);
    expect(duration.attributes).toEqual(helper);
    expect(duration.histogram!.count).toBe(1);
    // The same invocation under the current model's name: a top-level agent is not nested.
    const invocation = only(c, METRICS.invocationDuration.name, helper);
    expect(invocation.attributes).toEqual({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.invocation.is_nested': false, ...helper });
    expect([invocation.histogram!.count, invocation.value]).toEqual([1, duration.value]);
    expect(invocation.histogram!.buckets.boundaries).toEqual([0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6]);
    // The invocation contains its tool calls. The calls of one reply run at once (their durations
    // overlap: each waits on the schema worker), so what adds up is one tool's calls, each in its own
    // iteration here: lookup's two, weather's one.
    const tools = c.series(METRICS.executeToolDuration.name);
    expect(tools.map((s) => s.attributes['gen_ai.tool.name']).sort()).toEqual(['lookup', 'weather']);
    for (const tool of tools) expect(duration.value).toBeGreaterThanOrEqual(tool.value);
  });

  it('records every tool call by tool, executed by the agent, without error.type', async () => {
    const c = await meter.collect();
    expect(c.series(METRICS.executeToolDuration.name).map((s) => [s.attributes, s.histogram!.count])).toEqual([
      [{ 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.type': 'function', 'gen_ai.agent.name': 'Helper', 'footprint.agent': 'helper' }, 2],
      [{ 'gen_ai.tool.name': 'weather', 'gen_ai.tool.type': 'function', 'gen_ai.agent.name': 'Helper', 'footprint.agent': 'helper' }, 1],
    ]);
  });
});

describe('a failing tool', () => {
  it('carries the error type on its duration, and still counts as one of the invocation tool calls', async () => {
    let asked = false;
    const provider = scripted({
      replies: () => {
        if (asked) return { content: 'sorry' };
        asked = true;
        return { toolCalls: [{ id: 't1', name: 'charge', args: {} }, { id: 't2', name: 'nope', args: {} }] };
      },
    });
    const flaky = Agent.create({ provider, model: 'm', id: 'flaky', name: 'Flaky' })
      .tool({ name: 'charge', description: 'Charges a card', inputSchema: { type: 'object' }, execute: async () => Promise.reject(new TypeError('card declined')) })
      .build();
    expect((await flaky.run('charge me')).text).toBe('sorry');
    const c = await meter.collect();
    const byTool = (a: { attributes: Record<string, unknown> }, b: { attributes: Record<string, unknown> }) =>
      String(a.attributes['gen_ai.tool.name']).localeCompare(String(b.attributes['gen_ai.tool.name']));
    expect(c.series(METRICS.executeToolDuration.name, { 'footprint.agent': 'flaky' }).sort(byTool).map((s) => s.attributes)).toEqual([
      // 'nope' is no tool of the agent: a name the model made up is never a series of its own.
      { 'gen_ai.tool.name': '_OTHER', 'gen_ai.tool.type': 'function', 'gen_ai.agent.name': 'Flaky', 'footprint.agent': 'flaky', 'error.type': 'unknown_tool' },
      { 'gen_ai.tool.name': 'charge', 'gen_ai.tool.type': 'function', 'gen_ai.agent.name': 'Flaky', 'footprint.agent': 'flaky', 'error.type': 'TypeError' },
    ]);
    expect(shape(c, METRICS.invokeAgentToolCalls.name, { 'footprint.agent': 'flaky' })).toEqual([1, 2, [0, 1, 0, 0, 0, 0, 0, 0, 0]]);
    expect(shape(c, METRICS.invokeAgentInferenceCalls.name, { 'footprint.agent': 'flaky' })).toEqual([1, 2, [0, 1, 0, 0, 0, 0, 0, 0, 0]]);
  });
});

describe('a Sequence of two agents', () => {
  it('records the workflow once by its id, and each agent its own single model call', async () => {
    const pipeline = Sequence.create({ id: 'pipeline' }).step('draft', agent('writer', 'a draft')).step('edit', agent('editor', 'edited')).build();
    expect((await pipeline.run('write')).text).toBe('edited');
    const c = await meter.collect();
    const workflow = only(c, METRICS.workflowDuration.name, { 'gen_ai.workflow.name': 'pipeline' });
    expect(workflow.attributes).toEqual({ 'gen_ai.workflow.name': 'pipeline' });
    expect(workflow.histogram!.count).toBe(1);
    for (const id of ['writer', 'editor']) {
      const who = { 'gen_ai.agent.name': id.toUpperCase(), 'footprint.agent': id };
      expect(shape(c, METRICS.invokeAgentInferenceCalls.name, who)).toEqual([1, 1, [1, 0, 0, 0, 0, 0, 0, 0, 0]]);
      expect(shape(c, METRICS.invokeAgentToolCalls.name, who)).toEqual([1, 0, [1, 0, 0, 0, 0, 0, 0, 0, 0]]);
      expect(only(c, METRICS.invokeAgentDuration.name, who).attributes).toEqual(who);
    }
    // Under the current model's name: the composition at the top, its agents nested in it.
    expect(c.series(METRICS.invocationDuration.name, { 'gen_ai.workflow.name': 'pipeline' }).map((s) => [s.attributes, s.histogram!.count, s.value])).toEqual([
      [{ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.invocation.is_nested': false, 'gen_ai.workflow.name': 'pipeline' }, 1, workflow.value],
    ]);
    for (const id of ['writer', 'editor']) {
      expect(only(c, METRICS.invocationDuration.name, { 'footprint.agent': id }).attributes).toEqual({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.invocation.is_nested': true,
        'gen_ai.agent.name': id.toUpperCase(),
        'footprint.agent': id,
      });
    }
    // The workflow lasts at least as long as its two agents together.
    const agents = ['writer', 'editor'].map((id) => only(c, METRICS.invokeAgentDuration.name, { 'footprint.agent': id }).value);
    expect(workflow.value).toBeGreaterThanOrEqual(agents[0]! + agents[1]!);
  });
});

describe('failures', () => {
  const down = () => ({ error: new ProviderError({ provider: 'openai', kind: 'http', status: 500, message: 'down' }) });

  it('a failed run ends its open invocation and compositions with the error type, the failed model call counted', async () => {
    const outer = Sequence.create({ id: 'outer' })
      .step('first', agent('good', 'fine'))
      .step('inner', Sequence.create({ id: 'inner' }).step('bad', agent('bad', down())).build())
      .build();
    await expect(outer.run('go')).rejects.toThrow(/failed in agent "bad"/);
    const c = await meter.collect();
    expect(only(c, METRICS.invokeAgentDuration.name, { 'footprint.agent': 'bad' }).attributes).toEqual({ 'gen_ai.agent.name': 'BAD', 'footprint.agent': 'bad', 'error.type': '500' });
    expect(only(c, METRICS.invokeAgentDuration.name, { 'footprint.agent': 'good' }).attributes).toEqual({ 'gen_ai.agent.name': 'GOOD', 'footprint.agent': 'good' });
    expect(shape(c, METRICS.invokeAgentInferenceCalls.name, { 'footprint.agent': 'bad' })).toEqual([1, 1, [1, 0, 0, 0, 0, 0, 0, 0, 0]]);
    expect(c.series(METRICS.workflowDuration.name, { 'error.type': '500' }).map((s) => s.attributes['gen_ai.workflow.name']).sort()).toEqual(['inner', 'outer']);
    // The current model's name: the outer composition alone is not nested.
    expect(
      c
        .series(METRICS.invocationDuration.name, { 'error.type': '500' })
        .map((s) => [s.attributes['gen_ai.workflow.name'] ?? s.attributes['footprint.agent'], s.attributes['gen_ai.invocation.is_nested']])
        .sort(),
    ).toEqual([
      ['bad', true],
      ['inner', true],
      ['outer', false],
    ]);
  });

  it('a failed Parallel branch ends the invocation inside it with its error, while the run answers', async () => {
    const panel = Parallel.create({ id: 'panel' })
      .branch('legal', agent('legal', 'legal view'))
      .branch('ops', agent('ops', down()))
      .merge((results) => results.map((r) => `${r.id}:${r.status}`).join(' '))
      .build();
    expect((await panel.run('review')).text).toBe('legal:ok ops:error');
    const c = await meter.collect();
    expect(only(c, METRICS.invokeAgentDuration.name, { 'footprint.agent': 'ops' }).attributes).toEqual({ 'gen_ai.agent.name': 'OPS', 'footprint.agent': 'ops', 'error.type': '500' });
    expect(only(c, METRICS.workflowDuration.name, { 'gen_ai.workflow.name': 'panel' }).attributes).toEqual({ 'gen_ai.workflow.name': 'panel' });
  });
});
