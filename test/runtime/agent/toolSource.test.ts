/**
 * Tool sources (AgentBuilder.tools(source), a skill's tools): the agent reads the source at every
 * iteration, so a tool it gains is offered at the next model call without a rebuild and one it drops
 * is an unknown tool for the model, with the same validation as a fixed tool; what the source lists
 * at build time is checked like a fixed tool, what it gains later and cannot offer is left out.
 */
import { describe, expect, it } from 'vitest';
import { Agent, ConfigError, defineSkill, scripted, skillGraph, type LLMRequest, type Tool, type ToolSource } from '../../../src/index.js';
import { collect } from '../../fixtures/collect.js';

const idArgs = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false };

function tool(name: string, execute: (args: { id?: string }) => unknown = ({ id }) => `${name}:${id}`, inputSchema: Record<string, unknown> = idArgs): Tool {
  return { name, description: `the ${name} tool`, inputSchema, execute };
}

/** A source whose list the test (or one of its tools) changes. */
function mutableSource(initial: Tool[]): ToolSource & { list: Tool[] } {
  const source = { list: initial, tools: () => source.list };
  return source;
}

const offeredAt = (seen: ReturnType<typeof collect>) => seen.of('footprint.call.llm_start').map((p) => (p.tools ?? []).map((t) => t.name));
/** Every call's name, status and result, in the order of the calls' ids (parallel calls end in any order). */
const results = (seen: ReturnType<typeof collect>) =>
  seen
    .of('footprint.call.tool_end')
    .sort((a, b) => a.toolCallId.localeCompare(b.toolCallId))
    .map((p) => [p.toolName, p.status, p.result]);

describe('a tool source', () => {
  it('offers what the source lists at each model call: a gained tool runs, a dropped one is an unknown tool', async () => {
    const escalate = tool('escalate');
    const lookup = tool('lookup');
    const source = mutableSource([lookup]);
    source.list = [
      lookup,
      tool('grow', () => {
        source.list = [...source.list, escalate];
        return 'grown';
      }, { type: 'object' }),
      tool('shrink', () => {
        source.list = source.list.filter((t) => t !== lookup);
        return 'shrunk';
      }, { type: 'object' }),
    ];
    const provider = scripted({
      replies: [
        { toolCalls: [{ id: 'c1', name: 'grow', args: {} }] },
        { toolCalls: [{ id: 'c2', name: 'escalate', args: { id: '9' } }, { id: 'c3', name: 'escalate', args: { id: 9 } }] },
        { toolCalls: [{ id: 'c4', name: 'shrink', args: {} }] },
        { toolCalls: [{ id: 'c5', name: 'lookup', args: { id: '1' } }] },
        { content: 'done' },
      ],
    });
    const agent = Agent.create({ provider, model: 'm' }).tool(tool('note')).tools(source).build();
    const seen = collect(agent);
    expect((await agent.run('go')).text).toBe('done');
    expect(offeredAt(seen)).toEqual([
      ['note', 'lookup', 'grow', 'shrink'],
      ['note', 'lookup', 'grow', 'shrink', 'escalate'],
      ['note', 'lookup', 'grow', 'shrink', 'escalate'],
      ['note', 'grow', 'shrink', 'escalate'],
      ['note', 'grow', 'shrink', 'escalate'],
    ]);
    expect(results(seen)).toEqual([
      ['grow', 'ok', 'grown'],
      ['escalate', 'ok', 'escalate:9'],
      ['escalate', 'invalid_args', 'Invalid arguments for tool "escalate": args/id must be string. Fix them and call again.'],
      ['shrink', 'ok', 'shrunk'],
      ['lookup', 'unknown_tool', 'Unknown tool "lookup". Available tools: note, grow, shrink, escalate.'],
    ]);
  });

  it('a tool dropped between the model call and the tool call is an unknown tool', async () => {
    const lookup = tool('lookup');
    const source = mutableSource([lookup, tool('other')]);
    const provider = scripted({
      replies: (request: LLMRequest) => {
        if (request.messages.some((m) => m.role === 'tool')) return { content: 'done' };
        source.list = source.list.filter((t) => t !== lookup); // the server drops it while the model thinks
        return { toolCalls: [{ id: 'c1', name: 'lookup', args: { id: '1' } }] };
      },
    });
    const agent = Agent.create({ provider, model: 'm' }).tools(source).build();
    const seen = collect(agent);
    expect((await agent.run('go')).text).toBe('done');
    expect(offeredAt(seen)).toEqual([['lookup', 'other'], ['other']]);
    expect(results(seen)).toEqual([['lookup', 'unknown_tool', 'Unknown tool "lookup". Available tools: other.']]);
  });

  it('leaves out a tool gained later whose schema does not compile or whose name is taken', async () => {
    const fixed = tool('lookup', () => 'fixed');
    const source = mutableSource([tool('a')]);
    const provider = scripted({
      replies: [
        { toolCalls: [{ id: 'c1', name: 'a', args: { id: '1' } }] },
        { toolCalls: [{ id: 'c2', name: 'lookup', args: { id: '2' } }] },
        { content: 'done' },
      ],
    });
    const agent = Agent.create({ provider, model: 'm' }).tool(fixed).tools(source).build();
    const seen = collect(agent);
    source.list = [tool('a'), tool('broken', undefined, { type: 'no-such-type' }), tool('lookup', () => 'shadow'), tool('read_skill')];
    expect((await agent.run('go')).text).toBe('done');
    expect(offeredAt(seen)).toEqual([['lookup', 'a'], ['lookup', 'a'], ['lookup', 'a']]);
    expect(results(seen)).toEqual([
      ['a', 'ok', 'a:1'],
      ['lookup', 'ok', 'fixed'],
    ]);
  });

  it('build() checks what a source lists then like a fixed tool', () => {
    const build = (source: ToolSource) => () => Agent.create({ provider: scripted({ replies: [{ content: 'x' }] }), model: 'm' }).tool(tool('lookup')).tools(source).build();
    expect(build(mutableSource([tool('broken', undefined, { type: 'no-such-type' })]))).toThrow(ConfigError);
    expect(build(mutableSource([tool('broken', undefined, { type: 'no-such-type' })]))).toThrow(
      /^agent "agent": a tool source: tool "broken": its inputSchema cannot be used: it is not a valid draft-07 JSON Schema: /,
    );
    expect(build(mutableSource([tool('lookup')]))).toThrow(new ConfigError('agent "agent": two different tools are named "lookup"'));
    expect(build({} as ToolSource)).toThrow(new ConfigError('agent "agent": a tool source needs tools()'));
  });

  it('in a skill, is gated like the skill’s fixed tools and read at each iteration in the skill', async () => {
    const source = mutableSource([tool('invoice')]);
    const billing = defineSkill({ id: 'billing', description: 'Billing questions', body: 'Bill.', tools: [source] });
    const triage = defineSkill({ id: 'triage', description: 'Sort the ticket', body: 'Sort.' });
    const graph = skillGraph().entry(triage).edge(triage, billing).build();
    const provider = scripted({
      replies: [
        { toolCalls: [{ id: 'c1', name: 'invoice', args: { id: '1' } }] },
        { toolCalls: [{ id: 'c2', name: 'read_skill', args: { id: 'billing' } }] },
        { toolCalls: [{ id: 'c3', name: 'invoice', args: { id: '2' } }] },
        { content: 'done' },
      ],
    });
    const agent = Agent.create({ provider, model: 'm' }).skillGraph(graph).build();
    const seen = collect(agent);
    source.list = [tool('invoice'), tool('refund')];
    expect((await agent.run('go')).text).toBe('done');
    expect(offeredAt(seen)).toEqual([['read_skill'], ['read_skill'], ['invoice', 'refund', 'read_skill'], ['invoice', 'refund', 'read_skill']]);
    expect(results(seen).map(([name, status]) => [name, status])).toEqual([
      ['invoice', 'unknown_tool'],
      ['read_skill', 'ok'],
      ['invoice', 'ok'],
    ]);
  });
});
