/**
 * Lineage across runs and ways of running (issue #36): a runner run inside a tool has that tool call
 * as its input's producer (with the outer run's id); a streamed run lists the same parts as run();
 * an MCP tool's result is a tool result like any; and 50 concurrent runs on one Agent instance never
 * name a producer of another run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, scripted, type InputPart, type LLMRequest } from '../../../src/index.js';
import { connectMcp, type McpConnection } from '../../../src/mcp/index.js';
import { FIXTURE, SLOW_START } from '../../support/mcp/world.js';
import { instructions, lineageLog, message, producer, toolList } from '../../support/lineage.js';

const DELEGATE = { name: 'delegate', description: 'Asks the inner agent', inputSchema: { type: 'object' } };

/** An agent that calls `tool` once (call id t1), then answers with the result. */
function oneToolProvider(tool: string, args: Record<string, unknown>) {
  return scripted({
    replies: (request: LLMRequest) => {
      const result = request.messages.find((m) => m.role === 'tool');
      return result ? `answer: ${String(result.content)}` : { toolCalls: [{ id: 't1', name: tool, args }] };
    },
  });
}

describe('a runner run inside a tool', () => {
  it("has the tool call (the outer run's) as its input's producer", async () => {
    const inner = Agent.create({ provider: scripted({ replies: ['inner answer'] }), model: 'm2', id: 'inner' }).system('Inner.').build();
    const innerLog = lineageLog(inner);
    // The tool starts the inner run before its first await (a tool that awaits first: the test below).
    const outer = Agent.create({ provider: oneToolProvider('delegate', {}), model: 'm1', id: 'outer' })
      .tool({ ...DELEGATE, execute: async () => (await inner.run('sub-question')).text })
      .build();
    const outerLog = lineageLog(outer);
    const result = await outer.run('question');
    expect(result.text).toBe('answer: inner answer');
    const [askedBy] = outerLog.callIds() as [string];
    expect(innerLog.parts()).toEqual([[instructions('inner', 'Inner.'), message(0, 'user', 'run_input', producer.tool(askedBy, 't1', result.runId), 'sub-question')]]);
  });

  it('a run started from a tool after its first await is a run of its own', async () => {
    const inner = Agent.create({ provider: scripted({ replies: ['inner answer'] }), model: 'm2', id: 'inner' }).build();
    const innerLog = lineageLog(inner);
    let innerRunId = '';
    const outer = Agent.create({ provider: oneToolProvider('delegate', {}), model: 'm1', id: 'outer' })
      .tool({
        ...DELEGATE,
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          const run = await inner.run('sub-question');
          innerRunId = run.runId;
          return run.text;
        },
      })
      .build();
    await outer.run('question');
    expect(innerLog.parts()).toEqual([[message(0, 'user', 'run_input', producer.run(innerRunId), 'sub-question')]]);
  });
});

describe('a streamed run', () => {
  it('lists the parts run() lists, the producers its own', async () => {
    const build = () =>
      Agent.create({ provider: oneToolProvider('lookup', { q: '42' }), model: 'm1', id: 'helper' })
        .system('Be terse.')
        .tool({ name: 'lookup', description: 'Finds an invoice', inputSchema: { type: 'object' }, execute: () => 'paid' })
        .build();
    const agent = build();
    const log = lineageLog(agent);
    const stream = agent.stream('Is 42 paid?');
    for await (const part of stream) void part;
    const result = await stream.result;
    expect(log.starts.map((s) => s.payload.stream)).toEqual([true, true]);
    const [c1] = log.callIds() as [string];
    const system = instructions('helper', 'Be terse.');
    const input = message(0, 'user', 'run_input', producer.run(result.runId), 'Is 42 paid?');
    const tools = toolList('helper', [{ name: 'lookup', description: 'Finds an invoice', inputSchema: { type: 'object' } }]);
    expect(log.parts()).toEqual([
      [system, input, tools],
      [
        system,
        input,
        message(1, 'assistant', 'model_output', producer.call(c1), '', { toolCalls: [{ name: 'lookup', args: { q: '42' } }] }),
        message(2, 'tool', 'tool_result', producer.tool(c1, 't1'), 'paid'),
        tools,
      ],
    ]);
  });
});

describe('an MCP tool', () => {
  let mcp: McpConnection;
  beforeAll(async () => {
    mcp = await connectMcp({ command: process.execPath, args: [FIXTURE, 'stdio'], stderr: 'inherit' }, SLOW_START);
  });
  afterAll(() => mcp.close());

  it("is a tool result produced by its tool call: the server's text, measured as the model gets it", async () => {
    const agent = Agent.create({ provider: oneToolProvider('lookup_order', { id: '7' }), model: 'm1', id: 'desk' }).system('Help.').tools(mcp).build();
    const log = lineageLog(agent);
    const result = await agent.run('Where is order 7?');
    expect(result.text).toBe('answer: order 7: shipped');
    const [c1] = log.callIds() as [string];
    const second = log.parts()[1]!;
    // The tool list is the server's (its schemas as it gives them): one part, the agent's.
    const tools = toolList('desk', log.starts[1]!.payload.tools!);
    expect(second).toEqual([
      instructions('desk', 'Help.'),
      message(0, 'user', 'run_input', producer.run(result.runId), 'Where is order 7?'),
      message(1, 'assistant', 'model_output', producer.call(c1), '', { toolCalls: [{ name: 'lookup_order', args: { id: '7' } }] }),
      message(2, 'tool', 'tool_result', producer.tool(c1, 't1'), 'order 7: shipped'),
      tools,
    ]);
  });
});

describe('50 concurrent runs on one Agent instance', () => {
  it("name no producer of another run: each run's parts are its own input, calls and tool calls", async () => {
    const agent = Agent.create({ provider: oneToolProvider('lookup', { q: 'x' }), model: 'm1', id: 'helper' })
      .tool({ name: 'lookup', description: 'Finds', inputSchema: { type: 'object' }, execute: async () => 'found' })
      .build();
    const byRun = new Map<string, { callIds: string[]; parts: InputPart[][] }>();
    agent.on('footprint.call.llm_start', (event) => {
      const mine = byRun.get(event.meta.runId) ?? { callIds: [], parts: [] };
      mine.callIds.push(event.payload.callId);
      mine.parts.push(event.payload.parts);
      byRun.set(event.meta.runId, mine);
    });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => agent.run(`question ${i}`)));
    expect(byRun.size).toBe(50);
    for (const [i, result] of results.entries()) {
      const { callIds, parts } = byRun.get(result.runId)!;
      const [c1] = callIds as [string, string];
      const input = message(0, 'user', 'run_input', producer.run(result.runId), `question ${i}`);
      const tools = toolList('helper', [{ name: 'lookup', description: 'Finds', inputSchema: { type: 'object' } }]);
      expect(parts).toEqual([
        [input, tools],
        [
          input,
          message(1, 'assistant', 'model_output', producer.call(c1), '', { toolCalls: [{ name: 'lookup', args: { q: 'x' } }] }),
          message(2, 'tool', 'tool_result', producer.tool(c1, 't1'), 'found'),
          tools,
        ],
      ]);
    }
  });
});
