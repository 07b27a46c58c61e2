/**
 * One Agent instance in two Parallel branches is two agents to its chat spans: a failed call's
 * RETRY_OF link and an answer's evaluation event belong to its own branch's calls (CallSpans keys them
 * by agent id and mount, as lineage keys its replies). Both branches' first calls fail on the primary
 * provider and fall back; one branch's tool arguments are refused by a slow schema while the other
 * branch calls its model (keyed by agent id alone, the evaluation was lost).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Agent, Parallel, ProviderError, registerInstrument, scripted, tracingInstrument, type ScriptedReply } from '../../src/index.js';
import { startSdk } from '../support/sdk.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());
let unregister = () => {};
afterEach(() => unregister());

/**
 * Arguments checked by a schema that takes its time refusing (a Standard Schema may validate
 * asynchronously): while one branch's refused arguments are checked, the other branch calls its model.
 */
const slowRefusal = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: async (value: unknown) => {
      if (typeof (value as { q?: unknown }).q === 'string') return { value };
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { issues: [{ message: 'q must be a string', path: ['q'] }] };
    },
    jsonSchema: { input: () => ({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }) },
  },
};

/** Every primary call fails (retryable); the fallback asks for `lookup` (its first reply with arguments the schema refuses), then answers. */
function twiceMounted() {
  let asked = 0;
  const overloaded = (): ScriptedReply => ({ error: new ProviderError({ provider: 'primary', kind: 'http', status: 503, message: 'overloaded', retryable: true }), delayMs: 5 });
  const helper = Agent.create({
    id: 'helper',
    provider: scripted({ name: 'primary', replies: overloaded }),
    model: 'm-primary',
    fallbacks: [
      {
        provider: scripted({
          name: 'backup',
          replies: (request): ScriptedReply =>
            request.messages.some((m) => m.role === 'tool') ? 'done' : { toolCalls: [{ id: 't1', name: 'lookup', args: { q: asked++ === 0 ? 42 : 'invoice 42' } }] },
        }),
        model: 'm-backup',
      },
    ],
  })
    .tool({ name: 'lookup', description: 'Finds an invoice', inputSchema: slowRefusal, execute: () => 'found' })
    .build();
  return Parallel.create({ id: 'twice' }).branch('x', helper).branch('y', helper).merge((results) => results.map((r) => r.id).join(' ')).build();
}

const chats = (model: string) => sdk.spans().filter((span) => span.name === `chat ${model}`);
const id = (span: ReadableSpan) => span.spanContext().spanId;
/** The agent span a span is under (its invoke_agent ancestor). */
function agentOf(span: ReadableSpan): string {
  const byId = new Map(sdk.spans().map((s) => [id(s), s]));
  let at: ReadableSpan | undefined = span;
  while (at && !at.name.startsWith('invoke_agent')) at = at.parentSpanContext && byId.get(at.parentSpanContext.spanId);
  return at ? id(at) : '(none)';
}

describe.each(['full', 'semantic'] as const)('one Agent instance in two Parallel branches (%s detail)', (detail) => {
  beforeEach(() => {
    unregister = registerInstrument(tracingInstrument({ detail }));
  });

  it("links each fallback to its own branch's failed call, and judges each branch's answer on its own chat span", async () => {
    await twiceMounted().run('hi');
    const failed = chats('m-primary');
    const fallbacks = chats('m-backup');
    // Two iterations per branch, each a failed primary call and its fallback.
    expect([failed.length, fallbacks.length]).toEqual([4, 4]);
    for (const fallback of fallbacks) {
      expect(fallback.links.filter((link) => link.attributes?.['gen_ai.attribution.link_type'] === 'RETRY_OF').length).toBe(1);
      const retried = fallback.links.find((link) => link.attributes?.['gen_ai.attribution.link_type'] === 'RETRY_OF')!;
      const before = failed.find((span) => id(span) === retried.context.spanId)!;
      expect(before.attributes['footprint.iteration']).toBe(fallback.attributes['footprint.iteration']);
      expect(agentOf(before)).toBe(agentOf(fallback));
    }
    expect(new Set(fallbacks.map((span) => span.links.find((link) => link.attributes?.['gen_ai.attribution.link_type'] === 'RETRY_OF')!.context.spanId)).size).toBe(4);

    const refused = sdk.spans().filter((span) => span.name === 'execute_tool lookup' && span.attributes['footprint.tool.status'] === 'invalid_args');
    expect(refused.length).toBe(1);
    const asker = refused[0]!.links[0]!.context.spanId;
    const judged = sdk.spans().filter((span) => span.events.some((event) => event.name === 'gen_ai.evaluation.result'));
    expect(judged.map(id)).toEqual([asker]);
    expect(judged[0]!.events.filter((event) => event.name === 'gen_ai.evaluation.result').map((event) => event.attributes)).toEqual([
      {
        'gen_ai.evaluation.name': 'footprint.tool_arguments',
        'gen_ai.evaluation.score.value': 0,
        'gen_ai.evaluation.score.label': 'invalid',
        // The schema's message is the app's text: not exported without content capture.
        'gen_ai.evaluation.explanation': 'message not recorded: content capture is off',
      },
    ]);
    expect(sdk.unended()).toEqual([]);
  });
});
