/**
 * The demo's support desk against the pinned v1.41 GenAI model: every span kind and metric it emits,
 * checked by the conformance checker, plus the nesting rule the README promises (every model call
 * sits under the agent or workflow span that made it).
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect, it } from 'vitest';
import { conformanceSuite } from './conformance.js';
import { deskPointFacts, deskSpanFacts, runDesk } from './scenarios/desk.js';

const SNAKE_CASE_KEY = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;

/** Which model call a span belongs to: its agent and iteration. */
const callKey = (span: ReadableSpan) => `${String(span.attributes['footprint.agent'])}#${String(span.attributes['footprint.iteration'])}`;

/** For each chat span: the first ancestor that is not a stage span must be invoke_agent / invoke_workflow. */
function chatsOutsideAMember(spans: readonly ReadableSpan[]): string[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const problems: string[] = [];
  for (const chat of spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')) {
    let parent = byId.get(chat.parentSpanContext?.spanId ?? '');
    while (parent && parent.attributes['footprint.stage.id'] !== undefined) parent = byId.get(parent.parentSpanContext?.spanId ?? '');
    const operation = parent?.attributes['gen_ai.operation.name'];
    if (operation !== 'invoke_agent' && operation !== 'invoke_workflow') {
      problems.push(`"${chat.name}" of ${String(chat.attributes['footprint.agent'])} sits under "${parent?.name ?? '(no parent)'}"`);
    }
  }
  return [...new Set(problems)].sort();
}

conformanceSuite(
  {
    name: 'support desk, content captured',
    telemetry: { captureContent: true, detail: 'full' },
    run: async () => {
      await runDesk();
    },
    availableOnSpan: deskSpanFacts,
    availableOnPoint: deskPointFacts,
  },
  (result) => {
    // a router's model call is `invoke_agent {router id}` (the router's decision), its chats under it.
    it('every chat span sits under an invoke_agent or invoke_workflow span', () => {
      expect(chatsOutsideAMember(result().telemetry.spans())).toEqual([]);
    });

    // span-event attribute keys are snake_case (durations in seconds, costs cost_usd).
    it('every span-event attribute key is snake_case', () => {
      const keys = result()
        .telemetry.spans()
        .flatMap((span) => span.events.flatMap((event) => Object.keys(event.attributes ?? {})));
      expect([...new Set(keys.filter((key) => !SNAKE_CASE_KEY.test(key)))].sort()).toEqual([]);
    });

    // the runtime's checks of an answer are gen_ai.evaluation.result events on its chat span.
    it("each refused skill jump is a gen_ai.evaluation.result event on the chat span that asked for it", () => {
      const spans = result().telemetry.spans();
      const refused = spans
        .filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool' && span.attributes['error.type'] === 'skill_rejected')
        .map(callKey);
      const evaluated = spans
        .filter((span) => span.attributes['gen_ai.operation.name'] === 'chat')
        .flatMap((chat) => chat.events.filter((e) => e.name === 'gen_ai.evaluation.result' && typeof e.attributes?.['gen_ai.evaluation.name'] === 'string').map(() => callKey(chat)));
      expect(evaluated.sort()).toEqual(refused.sort());
      const [first] = spans.flatMap((span) => span.events.filter((e) => e.name === 'gen_ai.evaluation.result'));
      expect(first?.attributes).toEqual({
        'gen_ai.evaluation.name': 'footprint.skill_jump',
        'gen_ai.evaluation.score.value': 0,
        'gen_ai.evaluation.score.label': 'refused',
        'gen_ai.evaluation.explanation': expect.stringMatching(/^"[a-z_]+" is not reachable from "[a-z_]+" \(allowed: [a-z_, ]+\)$/),
      });
    });
  },
);
