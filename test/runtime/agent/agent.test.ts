import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ConfigError, RunCancelledError, RunFailedError, scripted, ProviderError } from '../../../src/index.js';
import { collect } from '../../fixtures/collect.js';
import { recordStages } from '../../fixtures/recordStages.js';

const lookup = {
  name: 'lookup',
  description: 'Look something up',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
  execute: async (args: { q: string }) => ({ found: args.q.toUpperCase() }),
};
const add = {
  name: 'add',
  description: 'Add two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: (args: { a: number; b: number }) => args.a + args.b,
};

function threeIterationAgent() {
  const provider = scripted({
    replies: [
      { toolCalls: [{ id: 't1', name: 'lookup', args: { q: 'x' } }, { id: 't2', name: 'add', args: { a: 1, b: 2 } }], usage: { input: 100, output: 10 } },
      { toolCalls: [{ id: 't3', name: 'add', args: { a: 'oops' } }], usage: { input: 200, output: 20 } },
      { content: 'all done', usage: { input: 300, output: 30 } },
    ],
  });
  const agent = Agent.create({ provider, model: 'gpt-4o-mini', id: 'helper', name: 'Helper' })
    .system('Be terse.')
    .tool(lookup)
    .tool(add)
    .build();
  return { agent, provider };
}

let stopRecording: (() => void) | undefined;
afterEach(() => stopRecording?.());

describe('Agent (ReAct loop)', () => {
  it('runs Context once, then CallLLM (which engineers each iteration\'s context and decides the next step), ToolCalls, looping to CallLLM until Final', async () => {
    const rec = recordStages();
    stopRecording = rec.stop;
    const { agent } = threeIterationAgent();
    expect((await agent.run('hello')).text).toBe('all done');
    const ids = rec.stages.map((s) => s.replace(/#\d+$/, ''));
    expect(ids).toEqual(['context', 'call-llm', 'tool-calls', 'call-llm', 'tool-calls', 'call-llm', 'final']);
  });

  it('emits the turn, iteration, stream and cost events with their payloads', async () => {
    const { agent } = threeIterationAgent();
    const seen = collect(agent);
    await agent.run({ message: 'hello' });
    expect(seen.types()[0]).toBe('footprint.agent.turn_start');
    expect(seen.types().at(-1)).toBe('footprint.agent.turn_end');
    expect(seen.of('footprint.agent.iteration_start').map((p) => p.iteration)).toEqual([1, 2, 3]);
    expect(seen.of('footprint.agent.next_step').map((p) => p.chosen)).toEqual(['tool-calls', 'tool-calls', 'final']);
    const llmEnds = seen.of('footprint.call.llm_end');
    expect(llmEnds.map((p) => p.usage?.input)).toEqual([100, 200, 300]);
    expect(llmEnds[0]!.toolCalls).toEqual([{ id: 't1', name: 'lookup' }, { id: 't2', name: 'add' }]);
    const end = seen.of('footprint.agent.turn_end')[0]!;
    expect(end).toMatchObject({ agentId: 'helper', outcome: 'ok', iterations: 3, llmCalls: 3, answer: 'all done' });
    expect(end.tokens).toMatchObject({ input: 600, output: 60 });
    // gpt-4o-mini: $0.15 in / $0.60 out per million
    expect(end.costUsd).toBeCloseTo((600 * 0.15 + 60 * 0.6) / 1e6, 12);
    for (const e of seen.events) {
      expect(e.meta.runId).toMatch(/^run_/);
      expect(e.meta.member).toEqual({ kind: 'agent', id: 'helper' });
      expect(e.meta.timestamp).toBeGreaterThan(Date.now() - 60_000);
      expect(e.meta.runtimeStageId).toMatch(/#\d+$/);
    }
    const stamps = seen.events.map((e) => e.meta.timestamp);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });

  it('turns invalid arguments, unknown tools and throwing tools into error results the model sees', async () => {
    const provider = scripted({
      replies: [
        {
          toolCalls: [
            { id: 'a', name: 'add', args: { a: 'not a number' } },
            { id: 'b', name: 'nope', args: {} },
            { id: 'c', name: 'boom', args: {} },
          ],
        },
        'recovered',
      ],
    });
    const agent = Agent.create({ provider, model: 'm' })
      .tool(add)
      .tool({ name: 'boom', description: 'fails', inputSchema: { type: 'object' }, execute: () => { throw new TypeError('kaput'); } })
      .build();
    const seen = collect(agent);
    expect((await agent.run('go')).text).toBe('recovered');
    // the calls run concurrently: each ends when it is done (a JSON Schema check is a message to the schema worker)
    const ends = [...seen.of('footprint.call.tool_end')].sort((x, y) => x.toolCallId.localeCompare(y.toolCallId));
    expect(ends.map((e) => [e.toolCallId, e.status])).toEqual([['a', 'invalid_args'], ['b', 'unknown_tool'], ['c', 'error']]);
    expect(ends[2]!.error).toEqual({ type: 'TypeError', message: 'TypeError: kaput' });
    const toolMessages = provider.calls[1]!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.toolCallId)).toEqual(['a', 'b', 'c']);
    expect(toolMessages[0]!.content).toMatch(/Invalid arguments for tool "add".*args\/a must be number/);
    expect(toolMessages[1]!.content).toMatch(/Unknown tool "nope"\. Available tools: add, boom/);
    expect(toolMessages[2]!.content).toBe('Tool "boom" failed: TypeError: kaput');
  });

  it('gives a tool its own copy of the arguments: what it changes never reaches the conversation or the events', async () => {
    const mutating = {
      name: 'tidy',
      description: 'Changes its arguments in place',
      inputSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } }, required: ['tags'] },
      execute: (args: { tags: string[]; extra?: boolean }) => {
        args.tags.push('added');
        args.extra = true;
        return args.tags.length;
      },
    };
    const provider = scripted({ replies: [{ toolCalls: [{ id: 't1', name: 'tidy', args: { tags: ['a'] } }] }, 'done'] });
    const agent = Agent.create({ provider, model: 'm' }).tool(mutating).build();
    const seen = collect(agent);
    expect((await agent.run('go')).text).toBe('done');
    const asked = provider.calls[1]!.messages.find((m) => m.role === 'assistant')!;
    expect(asked.toolCalls).toEqual([{ id: 't1', name: 'tidy', args: { tags: ['a'] } }]);
    expect(provider.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toBe('2');
    expect(seen.of('footprint.call.tool_start').map((p) => p.args)).toEqual([{ tags: ['a'] }]);
  });

  it('runs the tool calls of one turn in parallel', async () => {
    const spans: Record<string, { start: number; end: number }> = {};
    const slow = (name: string) => ({
      name,
      description: name,
      inputSchema: { type: 'object' },
      execute: async () => {
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 40));
        spans[name] = { start, end: performance.now() };
        return name;
      },
    });
    const provider = scripted({ replies: [{ toolCalls: [{ name: 's1' }, { name: 's2' }, { name: 's3' }] }, 'ok'] });
    const agent = Agent.create({ provider, model: 'm' }).tool(slow('s1')).tool(slow('s2')).tool(slow('s3')).build();
    const seen = collect(agent);
    await agent.run('go');
    // every call started before any finished: they overlapped
    const firstEnd = Math.min(...Object.values(spans).map((s) => s.end));
    expect(Object.values(spans).every((s) => s.start < firstEnd)).toBe(true);
    const tools = seen.events.filter((e) => e.type.startsWith('footprint.call.tool_'));
    expect(tools.slice(0, 3).every((e) => e.type === 'footprint.call.tool_start')).toBe(true);
    expect(seen.of('footprint.call.tool_start').map((p) => p.parallelCount)).toEqual([3, 3, 3]);
  });

  it('stops at maxIterations with a clear stopped-early outcome', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'lookup', args: { q: 'again' } }] }] });
    const agent = Agent.create({ provider, model: 'm', maxIterations: 3 }).tool(lookup).build();
    const seen = collect(agent);
    const answer = await agent.run('loop forever');
    expect(answer.text).toBe('Stopped early (max iterations) at iteration 3.');
    expect(provider.calls).toHaveLength(3);
    expect(seen.of('footprint.agent.iteration_cap')).toEqual([{ agentId: 'agent', maxIterations: 3, iteration: 3 }]);
    expect(seen.events.map((e) => e.type).filter((type) => type.startsWith('footprint.cost.'))).toEqual([]);
    expect(seen.of('footprint.agent.turn_end')[0]).toMatchObject({
      outcome: 'stopped_early',
      stoppedEarly: { reason: 'max_iterations', iteration: 3 },
    });
    expect(seen.of('footprint.agent.next_step').at(-1)!.chosen).toBe('stopped');
  });

  it('fails the run with a typed error naming the member and stage when the provider fails', async () => {
    const provider = scripted({ replies: [{ error: new ProviderError({ provider: 'scripted', kind: 'http', status: 500, retryable: true, message: 'upstream down' }) }] });
    const agent = Agent.create({ provider, model: 'm', id: 'fragile' }).build();
    const seen = collect(agent);
    const error = await agent.run('hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error).toMatchObject({ member: { kind: 'agent', id: 'fragile' }, stage: 'call-llm' });
    expect((error as RunFailedError).cause).toBeInstanceOf(ProviderError);
    // The one call failed without a reply: no usage reported, and its cost unknown (priced false), as RunResult counts it.
    expect({ usage: (error as RunFailedError).usage, cost: (error as RunFailedError).cost }).toEqual({ usage: { input: 0, output: 0 }, cost: { usd: 0, priced: false } });
    expect(seen.of('footprint.call.llm_end')[0]!.error).toMatchObject({ type: '500', status: 500, retryable: true });
    expect(seen.of('footprint.run.failed')[0]).toMatchObject({ member: 'fragile', memberKind: 'agent', stage: 'call-llm' });
  });

  it('cancels the in-flight model request when the run is aborted', async () => {
    let providerSawAbort = false;
    const provider = scripted({ replies: [{ content: 'too late', delayMs: 5_000 }] });
    const watching = {
      name: 'watching',
      complete: (req: Parameters<typeof provider.complete>[0], opts?: { signal?: AbortSignal }) => {
        opts?.signal?.addEventListener('abort', () => (providerSawAbort = true));
        return provider.complete(req, opts);
      },
    };
    const agent = Agent.create({ provider: watching, model: 'm' }).build();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user gave up')), 30);
    const error = await agent.run('hi', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunCancelledError);
    expect(providerSawAbort).toBe(true);
    expect((error as RunCancelledError).cause).toMatchObject({ name: 'ProviderError', kind: 'aborted' });
  });

  it('refuses impossible configurations at build time', () => {
    const provider = scripted({ replies: ['x'] });
    expect(() => Agent.create({ provider, model: '' }).build()).toThrow(ConfigError);
    expect(() => Agent.create({ provider, model: 'm', maxIterations: 0 }).build()).toThrow(/maxIterations/);
    expect(() =>
      Agent.create({ provider, model: 'm' }).tool({ ...lookup, inputSchema: { type: 'no-such-type' } }).build(),
    ).toThrow(/^agent "agent": tool "lookup": its inputSchema cannot be used: it is not a valid draft-07 JSON Schema: schema\/type must be/);
    expect(() => Agent.create({ provider, model: 'm' }).tool(lookup).tool({ ...lookup }).build()).toThrow(/two different tools/);
  });
});
