/**
 * Who reads a run's events, as the hub knows it (run/hub.ts `hears`): a subscriber of every event or
 * of the types it names, the stream of a streamed run, a listener of a runner of the tree. A model
 * call makes llm_start's input parts only when something reads llm_start (agent/stages/callLLM.ts):
 * the parts are what readers see, and a run none of whose parts reads them does not pay for them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ListenerSet, type EventType, type TypedEvent } from '../../../src/events/index.js';
import { registerInstrument } from '../../../src/runtime/index.js';
import { EventHub } from '../../../src/runtime/run/index.js';
import { MemberIndex } from '../../../src/runtime/run/members.js';
import { echoAgent } from '../../support/compositions.js';

let undo: (() => void)[] = [];
afterEach(() => {
  for (const stop of undo) stop();
  undo = [];
});

/** Every event an instrument subscribed to `types` (all when undefined) hears from now on. */
function heardBy(types?: readonly EventType[]): TypedEvent[] {
  const heard: TypedEvent[] = [];
  undo.push(registerInstrument({ id: 'test.reader', start: ({ events }) => ({ finished: events.subscribe((e) => heard.push(e), types) }) }));
  return heard;
}

const START: EventType = 'footprint.call.llm_start';

describe("a run's readers", () => {
  it('a subscription of named types hears those types only, in order', async () => {
    const heard = heardBy(['footprint.call.llm_end', 'footprint.agent.turn_end']);
    expect((await echoAgent('a').agent.run('x')).text).toBe('a(x)');
    expect(heard.map((e) => e.type)).toEqual(['footprint.call.llm_end', 'footprint.agent.turn_end']);
  });

  it("llm_start carries the call's input parts for a subscriber of llm_start", async () => {
    const heard = heardBy([START]);
    expect((await echoAgent('a').agent.run('x')).text).toBe('a(x)');
    expect(heard).toHaveLength(1);
    const { parts } = (heard[0] as TypedEvent<typeof START>).payload;
    expect(parts).toEqual([{ slot: 'messages', index: 0, role: 'user', origin: 'run_input', producer: { kind: 'run', id: heard[0]!.meta.runId }, chars: 1, tokens: 1 }]);
  });

  it('the hub knows who reads a type: typed and untyped subscribers, listeners by type, domain or *, a stream', () => {
    const { agent } = echoAgent('a');
    const index = new MemberIndex(agent);
    const hub = new EventHub('run_1', index);
    expect(hub.hears(START)).toBe(false);
    const offTyped = hub.subscribe(() => {}, ['footprint.call.llm_end']);
    expect([hub.hears(START), hub.hears('footprint.call.llm_end')]).toEqual([false, true]);
    offTyped();
    const offAll = hub.subscribe(() => {});
    expect(hub.hears(START)).toBe(true);
    offAll();
    for (const pattern of [START, 'footprint.call.*', '*'] as const) {
      const off = agent.on(pattern, () => {});
      expect(hub.hears(START)).toBe(true);
      off();
      expect(hub.hears(START)).toBe(false);
    }
    expect(agent.listeners.hears(START)).toBe(false);
    const streamed = new EventHub('run_2', index, { stream: { onEvent() {} } as never });
    expect(streamed.hears(START)).toBe(true);
  });

  it('a listener set hears a type by its exact name, its domain or *', () => {
    const set = new ListenerSet();
    expect(set.hears(START)).toBe(false);
    const off = set.on('footprint.agent.*', () => {});
    expect([set.hears('footprint.agent.turn_end'), set.hears(START)]).toEqual([true, false]);
    off();
    expect(set.hears('footprint.agent.turn_end')).toBe(false);
  });
});
