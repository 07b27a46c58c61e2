/**
 * The benchmark's reference turn (bench/scenario.ts) written for the Vercel AI SDK, the peer
 * `npm run bench:peer` compares against: the same system prompt, the same two tools (zod schemas,
 * as AI SDK users write them), the same three model replies with the same usage, from the SDK's own
 * mock model. ai 6 is the last line whose engines admit Node 20; ai 7 (declares Node >= 22) runs here
 * with its OpenTelemetry integration (@ai-sdk/otel) when it loads.
 */
import type { Tracer } from '@opentelemetry/api';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { MESSAGE, turnRound } from './scenario.js';

const SYSTEM = 'You answer order questions.';
export const ANSWER = 'Order 1234 shipped; shipping to Lyon costs 12 EUR.';

type Prompt = { role: string }[];

function usage(input: number, output: number) {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** The three replies of the reference turn, chosen by the turn's round as ours are (bench/scenario.ts turnRound). */
function reply(prompt: Prompt) {
  const round = turnRound(prompt);
  const toolCall = (id: string, toolName: string, input: unknown) => ({ type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) });
  if (round === 0) return { content: [toolCall('call_1', 'order_status', { id: '1234' })], finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' }, usage: usage(420, 24), warnings: [] };
  if (round === 1) return { content: [toolCall('call_2', 'shipping_cost', { to: 'Lyon', kg: 2 })], finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' }, usage: usage(510, 22), warnings: [] };
  return { content: [{ type: 'text' as const, text: ANSWER }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage: usage(600, 18), warnings: [] };
}

const tools = {
  order_status: tool({
    description: 'Status of an order',
    inputSchema: z.object({ id: z.string() }),
    execute: async ({ id }) => ({ id, status: 'shipped' }),
  }),
  shipping_cost: tool({
    description: 'Shipping cost to a city',
    inputSchema: z.object({ to: z.string(), kg: z.number() }),
    execute: async ({ to, kg }) => ({ to, eur: 6 * kg }),
  }),
};

export interface PeerTurn {
  /** One turn; resolves to the final answer text. */
  run(): Promise<string>;
  /** The mock records every call it served: cleared between timed blocks so it does not grow. */
  reset(): void;
}

/**
 * The turn on ai 6, traced into `tracer` (experimental_telemetry) or untraced. `content: false`
 * turns its prompt and completion recording off (`recordInputs`/`recordOutputs`), which is what our
 * default does: the fair comparison. `messages`: the turn given a conversation (bench/scenario.ts's
 * conversation()) instead of the one message, as an AI SDK app passes its history.
 */
export function aiSdk6Turn(tracer?: Tracer, { content = true, messages }: { content?: boolean; messages?: readonly { role: 'user' | 'assistant'; content: string }[] } = {}): PeerTurn {
  const model = new MockLanguageModelV3({ modelId: 'gpt-4o-mini', doGenerate: async (options) => reply(options.prompt as Prompt) });
  const input = messages === undefined ? { prompt: MESSAGE } : { messages: [...messages] };
  return {
    run: async () =>
      (
        await generateText({
          model,
          system: SYSTEM,
          ...input,
          tools,
          stopWhen: stepCountIs(5),
          experimental_telemetry: tracer ? { isEnabled: true, tracer, recordInputs: content, recordOutputs: content } : { isEnabled: false },
        })
      ).text,
    reset: () => void (model.doGenerateCalls.length = 0),
  };
}

/** The turn on ai 7 with @ai-sdk/otel, or undefined when that line does not load on this Node. */
export async function aiSdk7Turn(tracer?: Tracer): Promise<PeerTurn | undefined> {
  try {
    const ai = await import('ai7');
    const { MockLanguageModelV3: Mock7 } = await import('ai7/test');
    const { OpenTelemetry } = await import('@ai-sdk/otel');
    const model = new Mock7({ modelId: 'gpt-4o-mini', doGenerate: async (options) => reply(options.prompt as Prompt) as never });
    const tools7 = {
      order_status: ai.tool({ description: 'Status of an order', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => ({ id, status: 'shipped' }) }),
      shipping_cost: ai.tool({ description: 'Shipping cost to a city', inputSchema: z.object({ to: z.string(), kg: z.number() }), execute: async ({ to, kg }) => ({ to, eur: 6 * kg }) }),
    };
    const telemetry = tracer ? { isEnabled: true, integrations: [new OpenTelemetry({ tracer })] } : { isEnabled: false };
    return {
      run: async () => (await ai.generateText({ model, system: SYSTEM, prompt: MESSAGE, tools: tools7, stopWhen: ai.stepCountIs(5), telemetry })).text,
      reset: () => void (model.doGenerateCalls.length = 0),
    };
  } catch (error) {
    process.stderr.write(`bench:peer: ai 7 did not load here (${error instanceof Error ? error.message : String(error)})\n`);
    return undefined;
  }
}
