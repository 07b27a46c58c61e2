/**
 * The exported view (src/events/exportedView.ts), for every event type of the catalog: the payloads
 * here are generated from the catalog's own content declarations (EVENTS), not listed by hand, so a
 * new event type is covered the moment it is classified (and does not compile before: the type
 * checks at the end).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EVENT_TYPES,
  EVENTS,
  exportedView,
  markOwnText,
  WITHHELD_MESSAGE,
  type EventPayloads,
  type EventTable,
  type EventType,
  type ExportedEvent,
  type TypedEvent,
} from '../../src/events/index.js';
import { eventAttributes } from '../../src/otel/encoding/index.js';

const SECRET = 'CONTENT-SENTINEL-7d1e';
const META = { runId: 'run_1', runtimeStageId: 'call-llm#1', timestamp: 1, member: { kind: 'agent', id: 'a' }, compositionPath: ['agent:a'], route: '', subflowPath: [] } as const;

/** An event of `type` whose every declared content field (and every field beside it) holds the sentinel. */
function eventWithContent(type: EventType): TypedEvent {
  const payload: Record<string, unknown> = { agentId: 'a', status: 'error' };
  for (const field of EVENTS[type].content as readonly string[]) {
    const [head, leaf] = field.split('.') as [string, string | undefined];
    if (leaf === undefined) payload[head] = SECRET;
    else payload[head] = { type: 'text', ...(payload[head] as object), [leaf]: SECRET };
  }
  return { type, payload, meta: { ...META, compositionPath: [...META.compositionPath], subflowPath: [] } } as unknown as TypedEvent;
}

describe('the exported view of every event type in the catalog', () => {
  it.each(EVENT_TYPES)('%s: with capture off no content field is in the view or its span-event attributes', (type) => {
    const event = eventWithContent(type);
    const view = exportedView(event, false);
    expect(JSON.stringify(view)).not.toContain(SECRET);
    expect(JSON.stringify(eventAttributes(view))).not.toContain(SECRET);
    // The event itself is shared with listeners and the stream: never changed.
    expect(JSON.stringify(event).split(SECRET).length - 1).toBe((EVENTS[type].content as readonly string[]).length);
  });

  it.each(EVENT_TYPES)('%s: with capture on the view holds every content field (the check above can fail)', (type) => {
    const view = exportedView(eventWithContent(type), true);
    expect(JSON.stringify(view).split(SECRET).length - 1).toBe((EVENTS[type].content as readonly string[]).length);
  });

  it('with capture off copies exactly the payload\'s own fields but the content, in their order', () => {
    const payload = Object.assign(Object.create({ inherited: 'from the prototype' }) as object, {
      callId: 'c1',
      systemPrompt: SECRET,
      agentId: 'a',
      messages: [SECRET],
      iteration: 2,
    });
    const event = { type: 'footprint.call.llm_start', payload, meta: META } as unknown as TypedEvent<'footprint.call.llm_start'>;
    const view = exportedView(event, false);
    expect(Object.keys(view.payload)).toEqual(['callId', 'agentId', 'iteration']);
    expect(view.payload).toEqual({ callId: 'c1', agentId: 'a', iteration: 2 });
    expect('inherited' in view.payload).toBe(false);
  });

  it('classifies the fields that hold content, event by event', () => {
    const classified = Object.fromEntries(EVENT_TYPES.map((type) => [type, EVENTS[type].content]).filter(([, content]) => content!.length > 0));
    expect(classified).toEqual({
      'footprint.agent.turn_start': ['message'],
      'footprint.agent.turn_end': ['answer'],
      'footprint.agent.output_invalid': ['text', 'error.message'],
      'footprint.call.llm_start': ['systemPrompt', 'messages', 'tools'],
      'footprint.call.llm_chunk': ['part.delta', 'part.argumentsDelta'],
      'footprint.call.llm_end': ['content', 'error.message'],
      'footprint.call.tool_start': ['args'],
      'footprint.call.tool_end': ['result', 'error.message'],
      'footprint.composition.route_decided': ['evidence.reason'],
      'footprint.composition.branch_end': ['error.message'],
      'footprint.run.paused': ['question'],
      'footprint.run.resumed': ['question'],
      'footprint.run.failed': ['error.message'],
    });
  });
});

describe('a failure in a view', () => {
  const failed = (ownText?: boolean): TypedEvent<'footprint.run.failed'> => ({
    type: 'footprint.run.failed',
    payload: { member: 'a', memberKind: 'agent', stage: 'call-llm', error: { type: 'TypeError', message: SECRET, ...(ownText ? { ownText } : {}) } },
    meta: { ...META, compositionPath: ['agent:a'], subflowPath: [] },
  });

  it('reads as one with capture off: its text is the stand-in, its type stays, ownText is never exported', () => {
    expect(exportedView(failed(), false).payload.error).toEqual({ type: 'TypeError', message: WITHHELD_MESSAGE });
    expect(exportedView(failed(true), false).payload.error).toEqual({ type: 'TypeError', message: SECRET });
    expect(exportedView(failed(true), true).payload.error).toEqual({ type: 'TypeError', message: SECRET });
    expect(exportedView(failed(), true)).toEqual(failed());
  });

  it('of a thrown value: a stand-in with its class, type and frames unless its class is marked as footprint-otel wording', () => {
    class Leaky extends Error {
      override name = 'Leaky';
    }
    class Ours extends Error {}
    markOwnText(Ours);
    const thrown = new Leaky(`password=${SECRET}`);
    const standIn = exportedView({ type: 'thrown', payload: { error: thrown } }, false).payload.error as Error & { errorType: string };
    expect([standIn.name, standIn.message, standIn.errorType, standIn.stack!.includes(SECRET), standIn.stack!.split('\n')[0]]).toEqual([
      'Leaky',
      WITHHELD_MESSAGE,
      'Leaky',
      false,
      `Leaky: ${WITHHELD_MESSAGE}`,
    ]);
    const ours = new Ours('fixed wording');
    expect(exportedView({ type: 'thrown', payload: { error: ours } }, false).payload.error).toBe(ours);
    expect(exportedView({ type: 'thrown', payload: { error: thrown } }, true).payload.error).toBe(thrown);
  });

  it('of a thrown value whose message has lines that look like stack frames: its frames are the stack\'s, never a line of its message', () => {
    // V8 writes the whole message at the head of the stack, so a quoted text's line "    at …" is there too
    const thrown = new TypeError(`cannot read the ticket:\n    at ${SECRET} (row 3)\n  at the store`);
    const [, , , ...frames] = thrown.stack!.split('\n');
    expect(frames.length).toBeGreaterThan(0);
    const standIn = exportedView({ type: 'thrown', payload: { error: thrown } }, false).payload.error as Error;
    expect(standIn.stack).toBe([`TypeError: ${WITHHELD_MESSAGE}`, ...frames].join('\n'));
  });

  it('of a thrown value whose stack no longer begins with its message (the message was changed): no frames, since where the old text ends is unknown', () => {
    const thrown = new Error(`cannot read the ticket:\n    at ${SECRET} (row 3)`);
    // V8 writes the stack when it is first read (here, as a logger would), with the message of then
    expect(thrown.stack).toContain(SECRET);
    thrown.message = 'lookup failed';
    const standIn = exportedView({ type: 'thrown', payload: { error: thrown } }, false).payload.error as Error;
    expect(standIn.stack).toBe(`Error: ${WITHHELD_MESSAGE}`);
  });
});

describe('the classification, as the types hold it', () => {
  it('makes every content field optional in a view, and keeps an error message (its stand-in)', () => {
    expectTypeOf<ExportedEvent<'footprint.agent.turn_start'>['payload']['message']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ExportedEvent<'footprint.agent.turn_start'>['payload']['agentId']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<ExportedEvent<'footprint.run.failed'>['payload']['error']>['message']>().toEqualTypeOf<string>();
  });

  it('does not compile a new event type until its content is classified', () => {
    type Grown = EventPayloads & { 'footprint.test.leak': { agentId: string; secret: string } };
    // @ts-expect-error: the new event type has no entry (doc and content fields)
    const unclassified: EventTable<Grown> = EVENTS;
    const classified: EventTable<Grown> = { ...EVENTS, 'footprint.test.leak': { doc: 'A test event.', content: ['secret'] } };
    // @ts-expect-error: a content field the payload does not have
    const misspelled: EventTable<Grown> = { ...EVENTS, 'footprint.test.leak': { doc: 'A test event.', content: ['secrte'] } };
    expect([Object.keys(unclassified).length, Object.keys(classified).length, Object.keys(misspelled).length]).toEqual([EVENT_TYPES.length, EVENT_TYPES.length + 1, EVENT_TYPES.length + 1]);
  });
});
