/**
 * An Agent's own lineage (issue #36): over three iterations with tools, every model call lists its
 * input parts in the order sent (instructions, the messages, the tool list), each with the origin and
 * producer written down here from the scenario: the run's input, each earlier answer by the call that
 * gave it, each tool result by the tool call (the asking model call and the call id).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, LLMCall, scripted, setFingerprintKey, type LLMRequest } from '../../../src/index.js';
import { instructions, lineageLog, message, producer, toolList } from '../../support/lineage.js';

afterEach(() => setFingerprintKey(undefined));

const LOOKUP = { name: 'lookup', description: 'Finds an invoice', inputSchema: { type: 'object' } };
const WEATHER = { name: 'weather', description: 'Weather in a city', inputSchema: { type: 'object' } };

function threeIterations() {
  const replies = (request: LLMRequest) => {
    const results = request.messages.filter((m) => m.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ id: 't1', name: 'lookup', args: { q: 'invoice 42' } }, { id: 't2', name: 'weather', args: { city: 'Oslo' } }] };
    if (results === 2) return { content: 'Checking 43 too.', toolCalls: [{ id: 't3', name: 'lookup', args: { q: 'invoice 43' } }] };
    return 'Invoice 42 is paid.';
  };
  return Agent.create({ provider: scripted({ replies }), model: 'm1', id: 'helper' })
    .system('Be terse.')
    .tool({ ...LOOKUP, execute: (args: { q: string }) => `found ${args.q}` })
    .tool({ ...WEATHER, execute: () => 'sunny' })
    .build();
}

describe('an Agent with tools over three iterations', () => {
  it('lists, at every call, each part sent with where it came from', async () => {
    const agent = threeIterations();
    const log = lineageLog(agent);
    const result = await agent.run('Is invoice 42 paid?');
    expect(result.text).toBe('Invoice 42 is paid.');
    const [c1, c2, c3] = log.callIds() as [string, string, string];
    const system = instructions('helper', 'Be terse.');
    const input = message(0, 'user', 'run_input', producer.run(result.runId), 'Is invoice 42 paid?');
    const firstReply = message(1, 'assistant', 'model_output', producer.call(c1), '', {
      toolCalls: [
        { name: 'lookup', args: { q: 'invoice 42' } },
        { name: 'weather', args: { city: 'Oslo' } },
      ],
    });
    const found42 = message(2, 'tool', 'tool_result', producer.tool(c1, 't1'), 'found invoice 42');
    const sunny = message(3, 'tool', 'tool_result', producer.tool(c1, 't2'), 'sunny');
    const secondReply = message(4, 'assistant', 'model_output', producer.call(c2), 'Checking 43 too.', { toolCalls: [{ name: 'lookup', args: { q: 'invoice 43' } }] });
    const found43 = message(5, 'tool', 'tool_result', producer.tool(c2, 't3'), 'found invoice 43');
    const tools = toolList('helper', [LOOKUP, WEATHER]);
    expect(log.parts()).toEqual([
      [system, input, tools],
      [system, input, firstReply, found42, sunny, tools],
      [system, input, firstReply, found42, sunny, secondReply, found43, tools],
    ]);
  });

  it("reuses an earlier message's part from call to call (measured once per message)", async () => {
    const agent = threeIterations();
    const log = lineageLog(agent);
    await agent.run('Is invoice 42 paid?');
    const [first, , third] = log.parts() as [unknown[], unknown[], unknown[]];
    // The same object: the run's input was measured (and would be fingerprinted) once, not per call.
    expect(third[1]).toBe(first[1]);
  });
});

describe("an Agent's next run", () => {
  it("takes its last run's instruction and tool-list parts when they are the same (its tool definitions serialised once)", async () => {
    const agent = threeIterations();
    const log = lineageLog(agent);
    await agent.run('Is invoice 42 paid?');
    const second = await agent.run('Is invoice 43 paid?');
    const calls = log.parts();
    const [firstRun, secondRun] = [calls[0]!, calls[3]!];
    expect(secondRun).toEqual([instructions('helper', 'Be terse.'), message(0, 'user', 'run_input', producer.run(second.runId), 'Is invoice 43 paid?'), toolList('helper', [LOOKUP, WEATHER])]);
    expect(secondRun[0]).toBe(firstRun[0]);
    expect(secondRun[2]).toBe(firstRun[2]);
  });

  it('makes them again under a new fingerprint key', async () => {
    const agent = threeIterations();
    const log = lineageLog(agent);
    await agent.run('Is invoice 42 paid?');
    setFingerprintKey('k3y-for-the-slot-reuse-test-0123456789');
    await agent.run('Is invoice 43 paid?');
    const calls = log.parts();
    expect([calls[0]!, calls[3]!].map((parts) => parts.map((part) => Object.hasOwn(part, 'fingerprint')))).toEqual([
      [false, false, false],
      [true, true, true],
    ]);
  });
});

describe('an LLMCall', () => {
  it('sends its instructions and the run input, nothing else', async () => {
    const call = LLMCall.create({ provider: scripted({ replies: ['Bonjour'] }), model: 'm1', id: 'translate' }).system('Translate to French.').build();
    const log = lineageLog(call);
    const result = await call.run('Hello');
    expect(log.parts()).toEqual([[instructions('translate', 'Translate to French.'), message(0, 'user', 'run_input', producer.run(result.runId), 'Hello')]]);
  });

  it('without instructions, the run input alone', async () => {
    const call = LLMCall.create({ provider: scripted({ replies: ['Bonjour'] }), model: 'm1', id: 'bare' }).build();
    const log = lineageLog(call);
    const result = await call.run('Hello');
    expect(log.parts()).toEqual([[message(0, 'user', 'run_input', producer.run(result.runId), 'Hello')]]);
  });
});
