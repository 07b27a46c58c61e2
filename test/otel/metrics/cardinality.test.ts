/**
 * Cardinality stays bounded: 10,000 runs with unique run ids, session ids and messages (and model
 * replies that echo them) leave exactly as many series as the first few runs did, and no attribute
 * value anywhere carries a run id, session id, message or answer. Oversized ids are cut.
 */
import { describe, expect, it } from 'vitest';
import { MemoryConversationStore, messageText, Agent, scripted } from '../../../src/index.js';
import { MAX_ATTRIBUTE_CHARS, METRIC_CATALOG } from '../../../src/otel/metrics/index.js';
import { type Collection, meteredRuns } from '../../support/meter.js';

const RUNS = 10_000;

const meter = meteredRuns();

function seriesCount(c: Collection): number {
  return c.names().reduce((n, name) => n + c.series(name).length, 0);
}

function attributeValues(c: Collection): string[] {
  return c.names().flatMap((name) => c.series(name).flatMap((s) => Object.values(s.attributes).map(String)));
}

describe('10,000 runs with unique ids and messages', () => {
  it('keep the series count of the first runs and no run-specific value', async () => {
    const runIds = new Set<string>();
    const provider = scripted({
      replies: (request) => {
        const message = messageText(request.messages[0]!.content);
        return message.endsWith('0') && request.messages.length === 1
          ? { toolCalls: [{ name: 'echo', args: { text: message } }], usage: { input: message.length, output: 3 } }
          : { content: `You said ${message}`, usage: { input: 7, output: 4 } };
      },
    });
    const agent = Agent.create({ provider, model: 'm-small', id: 'echoer', pricing: { 'm-small': { input: 1, output: 1 } } })
      .tool({ name: 'echo', description: 'Echo', inputSchema: { type: 'object' }, execute: (args: { text: string }) => args.text })
      .build();
    agent.on('footprint.agent.turn_start', (e) => runIds.add(e.meta.runId));

    const runBatch = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        // odd runs answer at once, even runs call the tool first: both paths see unique text
        const message = `message-${i}-${'x'.repeat(i % 50)}${i % 2 ? '' : '0'}`;
        await agent.run(message, { conversationId: `user-${i}`, conversationStore: new MemoryConversationStore() });
      }
    };
    await runBatch(0, 20);
    const early = seriesCount(await meter.collect());
    await runBatch(20, RUNS);
    const c = await meter.collect();

    expect(runIds.size).toBe(RUNS);
    expect(seriesCount(c)).toBe(early);
    const values = attributeValues(c);
    for (const leak of [/run_/, /user-/, /message-/, /You said/]) {
      expect(values.filter((v) => leak.test(v))).toEqual([]);
    }
    // every instrument stays far below the SDK's 2000-series overflow limit
    for (const name of c.names()) expect(c.series(name).length).toBeLessThan(10);
    expect(c.names().every((name) => METRIC_CATALOG.some((spec) => spec.name === name))).toBe(true);
  }, 120_000);

  it('cut an oversized id to the attribute length limit', async () => {
    const id = `agent-${'y'.repeat(500)}`;
    await Agent.create({ provider: scripted({ replies: ['ok'] }), model: 'm-small', id }).build().run('hi');
    const runs = (await meter.collect()).series('footprint.runs', { 'footprint.runner.id': id.slice(0, MAX_ATTRIBUTE_CHARS) });
    expect(runs).toHaveLength(1);
  });
});
