/**
 * bench/peerTurn.ts's AI SDK 6 turn is the reference turn (bench/scenario.ts) on the peer: given a
 * 20-message conversation (bench/conversation.ts --peer) it must play the same three model calls and
 * give the same answer as given one message, or the per-message cost it is timed for is of another turn.
 * Traced with content recording off, as the benchmark times it, into the real OTel SDK.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { aiSdk6Turn, ANSWER } from '../../bench/peerTurn.js';
import { conversation } from '../../bench/scenario.js';

describe("the AI SDK 6 peer's reference turn", () => {
  it.each([1, 20])('given %i message(s): three model calls, two tool calls, the reference answer; no prompt recorded', async (length) => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const turn = aiSdk6Turn(provider.getTracer('peer-test'), { content: false, messages: conversation(length) });
    expect(await turn.run()).toBe(ANSWER);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(['ai.generateText', 'ai.generateText.doGenerate', 'ai.generateText.doGenerate', 'ai.generateText.doGenerate', 'ai.toolCall', 'ai.toolCall'].sort());
    expect(spans.filter((span) => span.name === 'ai.toolCall').map((span) => span.attributes['ai.toolCall.name'])).toEqual(['order_status', 'shipping_cost']);
    expect(spans.some((span) => 'ai.prompt.messages' in span.attributes || 'ai.prompt' in span.attributes)).toBe(false);
    await provider.shutdown();
  });
});
