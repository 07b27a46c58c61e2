/**
 * A fake OpenAI-compatible server on 127.0.0.1 against the pinned v1.41 GenAI model: a 429 that is
 * retried, cached and reasoning tokens, a response without usage, a run that fails on the 429, and a
 * Parallel with a failing member. The checker judges every span and metric; the extra tests pin the
 * rules a single attribute cannot show (where the system prompt goes, how often a failure is recorded).
 */
import { expect, it } from 'vitest';
import { conformanceSuite } from './conformance.js';
import { INVOICE_SYSTEM } from './scenarios/agents.js';
import {
  answeredFacts,
  failedFacts,
  panelFacts,
  panelPointFacts,
  runPanelWithFailingMember,
  runRateLimitedThenAnswered,
  runRateLimitedToFailure,
  serverPointFacts,
} from './scenarios/openai.js';

conformanceSuite(
  {
    name: 'OpenAI-compatible: 429 retried, cached + reasoning tokens, an answer without usage',
    telemetry: { captureContent: true },
    run: async () => {
      expect(await runRateLimitedThenAnswered()).toBe('INV-1001 is paid.');
    },
    availableOnSpan: answeredFacts,
    availableOnPoint: serverPointFacts,
  },
  (result) => {
    // OpenAI's wire format sends the system prompt as the history's first message.
    it('the system prompt sent in the history is the first input message', () => {
      const chats = result().telemetry.spans().filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
      const firsts = chats.map((chat) => (JSON.parse(String(chat.attributes['gen_ai.input.messages'])) as unknown[])[0]);
      const system = { role: 'system', parts: [{ type: 'text', content: INVOICE_SYSTEM }] };
      expect(firsts).toEqual([system, system]);
    });
  },
);

conformanceSuite(
  {
    name: 'OpenAI-compatible: the run fails on a 429',
    telemetry: { captureContent: true },
    run: async () => {
      const error = await runRateLimitedToFailure();
      expect(error.name).toBe('RunFailedError');
    },
    availableOnSpan: failedFacts,
    availableOnPoint: serverPointFacts,
  },
  (result) => {
    // one exception event, where it happened, typed by the error's class; error.type above.
    it('the failure is one exception event, on the chat span, typed by its class', () => {
      const recorded = result()
        .telemetry.spans()
        .flatMap((span) => span.events.filter((e) => e.name === 'exception').map((e) => [span.name, e.attributes?.['exception.type']]));
      expect(recorded).toEqual([['chat gpt-4o-mini', 'ProviderError']]);
    });

    it('sets error.type on the chat span, the stage that called it and the agent (the operations that failed)', () => {
      const typed = result()
        .telemetry.spans()
        .filter((span) => span.attributes['error.type'] !== undefined)
        .map((span) => [span.name, span.attributes['error.type']]);
      expect(typed).toEqual([
        ['chat gpt-4o-mini', '429'],
        ['CallLLM', '429'],
        ['invoke_agent Billing', '429'],
      ]);
    });
  },
);

conformanceSuite({
  name: 'Parallel with a member whose provider fails',
  telemetry: { captureContent: true },
  run: async () => {
    expect(await runPanelWithFailingMember()).toBe('first:ok second:error');
  },
  availableOnSpan: panelFacts,
  availableOnPoint: panelPointFacts,
});
