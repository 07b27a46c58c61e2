/**
 * run/lineage.ts and run/inputParts.ts on their own: origins kept beside a list, a list kept without
 * them (a checkpoint of the version before) read by role, a checkpoint's origins restored as
 * `checkpoint` keeping their producers and what they were first, and a message measured once.
 */
import { describe, expect, it } from 'vitest';
import { createSecretKey } from 'node:crypto';
import { appendFrom, appendWithOrigins, canonicalMessage, ConversationParts, measure, originsOf, type MessageOrigin } from '../../../src/runtime/run/index.js';
import { fingerprint } from '../../../src/runtime/run/fingerprint.js';
import { restoredStore } from '../../../src/runtime/run/lineage.js';
import { RunStore } from '../../../src/runtime/run/store.js';

const byCall: MessageOrigin = { origin: 'model_output', producer: { kind: 'model_call', id: 'call_1' } };
const loaded: MessageOrigin = { origin: 'conversation', producer: { kind: 'run', id: 'run_0', runId: 'run_0' }, restoredFrom: 'tool_result' };

describe('origins in the run store', () => {
  it('keeps one origin per message, beside the list', () => {
    const store = new RunStore();
    appendWithOrigins(store, 'history:t', [{ role: 'user', content: 'q' }], [{ origin: 'run_input', producer: { kind: 'run', id: 'run_1' } }]);
    appendFrom(store, 'history:t', byCall, { role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' });
    expect(originsOf(store, 'history:t', 'run_1')).toEqual([{ origin: 'run_input', producer: { kind: 'run', id: 'run_1' } }, byCall, byCall]);
  });

  it('reads a list kept without origins (a checkpoint of the version before) by role, produced by the run', () => {
    const store = new RunStore({ lists: { 'history:t': [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }, { role: 'tool', content: 'r', toolCallId: 'x' }] }, records: {} });
    const run = { kind: 'run', id: 'run_1' };
    expect(originsOf(store, 'history:t', 'run_1')).toEqual([
      { origin: 'run_input', producer: run },
      { origin: 'model_output', producer: run },
      { origin: 'tool_result', producer: run },
    ]);
  });

  it("restores a checkpoint's origins as checkpoint ones: producers kept, what each was first kept", () => {
    const saved = { lists: { 'history:t': [{}, {}], 'origins:history:t': [byCall, loaded] }, records: { r: {} } };
    expect(restoredStore(saved)).toEqual({
      lists: {
        'history:t': [{}, {}],
        'origins:history:t': [
          { origin: 'checkpoint', producer: { kind: 'model_call', id: 'call_1' }, restoredFrom: 'model_output' },
          { origin: 'checkpoint', producer: { kind: 'run', id: 'run_0', runId: 'run_0' }, restoredFrom: 'tool_result' },
        ],
      },
      records: { r: {} },
    });
  });
});

describe("a conversation's parts", () => {
  const input: MessageOrigin = { origin: 'run_input', producer: { kind: 'run', id: 'r1' } };
  const handed: MessageOrigin = { origin: 'handoff', producer: { kind: 'model_call', id: 'c1' } };
  const hello = { role: 'user' as const, content: 'hello' };

  it('gives the same part while message, index and origin stay; a new one when any changes, with the same numbers and fingerprint', () => {
    const key = createSecretKey(Buffer.from('k3y-for-the-conversation-parts-test'));
    const parts = new ConversationParts(key);
    const first = parts.part(hello, 0, 0, input);
    const print = fingerprint(key, 'messages', 'hello');
    expect(first).toEqual({ slot: 'messages', index: 0, role: 'user', origin: 'run_input', producer: input.producer, chars: 5, tokens: 2, fingerprint: print });
    expect(parts.part(hello, 0, 0, input)).toBe(first);
    // A window dropped an older message: the same message at another index of the slot.
    expect(parts.part(hello, 0, 1, input)).toEqual({ ...first, index: 1 });
    expect(parts.part(hello, 0, 1, handed)).toEqual({ ...first, index: 1, origin: 'handoff', producer: handed.producer });
    // Another message at that position (a list made again): measured anew.
    const other = { role: 'user' as const, content: 'bye' };
    expect(parts.part(other, 0, 1, handed)).toEqual({ slot: 'messages', index: 1, role: 'user', origin: 'handoff', producer: handed.producer, chars: 3, tokens: 1, fingerprint: fingerprint(key, 'messages', 'bye') });
  });

  it('has no fingerprint without a key', () => {
    expect(new ConversationParts(undefined).part(hello, 0, 0, input)).toEqual({ slot: 'messages', index: 0, role: 'user', origin: 'run_input', producer: input.producer, chars: 5, tokens: 2 });
  });

  it('without a key counts what a keyed part counts: text, tool calls (as written when kept so), 1 000 tokens an image', () => {
    const message = {
      role: 'assistant' as const,
      content: [{ type: 'text' as const, text: 'look' }, { type: 'image' as const, mediaType: 'image/png', url: 'https://x/y.png' }, { type: 'image' as const, mediaType: 'image/png', data: 'AAAA' }],
      toolCalls: [{ id: 'c', name: 'find', args: { q: 1 } }, { id: 'd', name: 'raw', args: {}, argsText: 'not json' }],
    };
    const chars = 4 + 'find'.length + '{"q":1}'.length + 'raw'.length + 'not json'.length;
    const expected = { slot: 'messages', index: 0, role: 'assistant', origin: 'run_input', producer: input.producer, chars, tokens: Math.ceil(chars / 4) + 2_000 };
    expect(new ConversationParts(undefined).part(message, 0, 0, input)).toEqual(expected);
    const keyed = new ConversationParts(createSecretKey(Buffer.from('k3y-for-the-conversation-parts-test'))).part({ ...message }, 0, 0, input);
    expect({ chars: keyed.chars, tokens: keyed.tokens }).toEqual({ chars, tokens: expected.tokens });
  });
});

describe('a message measured', () => {
  it('once per message object: characters of text, tool call names and arguments; 1 000 tokens an image', () => {
    const message = { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'look' }, { type: 'image' as const, mediaType: 'image/png', data: 'AAAA' }], toolCalls: [{ id: 'c', name: 'find', args: { q: 1 } }] };
    const first = measure(message);
    expect(first).toEqual({ chars: 4 + 4 + '{"q":1}'.length, tokens: Math.ceil(15 / 4) + 1_000 });
    expect(measure(message)).toBe(first);
  });

  it("counts a tool call's arguments as safeStringify writes them, flat or not: shared objects, cycles, BigInt, functions, a throwing getter", () => {
    const shared = { n: 1 };
    const cyclic: Record<string, unknown> = { a: 'x' };
    cyclic.self = cyclic;
    const throwing = Object.defineProperty({ a: 1 }, 'b', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const cases: [unknown, string][] = [
      [{ id: '1234', kg: 2, ok: true, none: null, nan: Number.NaN, quote: 'say "hi"\n' }, '{"id":"1234","kg":2,"ok":true,"none":null,"nan":null,"quote":"say \\"hi\\"\\n"}'],
      [Object.assign(Object.create(null) as object, { a: 'b' }), '{"a":"b"}'],
      [{ left: shared, right: shared }, '{"left":{"n":1},"right":"[circular]"}'],
      [cyclic, '{"a":"x","self":"[circular]"}'],
      [{ big: 10n, f: () => 1 }, '{"big":"10"}'],
      [['a', 1], '["a",1]'],
      [throwing, '[unserializable: no]'],
      [undefined, ''],
    ];
    for (const [args, json] of cases) {
      expect(measure({ role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'f', args: args as Record<string, unknown> }] }).chars).toBe(1 + json.length);
    }
  });

  it('canonical content for a fingerprint: text, the JSON of parts, calls by name and arguments (not ids); cycles do not throw', () => {
    expect(canonicalMessage({ role: 'user', content: 'hi' })).toBe('hi');
    expect(canonicalMessage({ role: 'user', content: [{ type: 'image', mediaType: 'image/png', url: 'https://x/y.png' }] })).toBe('[{"type":"image","mediaType":"image/png","url":"https://x/y.png"}]');
    expect(canonicalMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'any', name: 'f', args: { a: 1 } }] })).toBe('{"content":"","toolCalls":[{"name":"f","args":{"a":1}}]}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(canonicalMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'f', args: cyclic }] })).toBe('{"content":"","toolCalls":[{"name":"f","args":{"self":"[circular]"}}]}');
  });
});
