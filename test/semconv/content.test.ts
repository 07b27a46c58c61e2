/**
 * Content capture under the 8 KiB cap keeps the JSON the v1.41 schemas require: a huge single
 * message is cut inside its strings (still a valid message list), and a history too long to fit
 * even with every string cut must still be a message list, not some other JSON shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, scripted, type ScriptedReply } from '../../src/index.js';
import { checkTelemetry, startSemconvTelemetry, type SemconvTelemetry } from '../support/semconv/index.js';

const echo = { name: 'echo', description: 'Echo the text.', inputSchema: { type: 'object' }, execute: (args: { text: string }) => args.text };

/** Schema violations of the chat spans' message attributes (the only rule judged here). */
function chatSchemaViolations(telemetry: SemconvTelemetry): string[] {
  const lines = checkTelemetry({ spans: telemetry.spans(), availableOnSpan: () => [] });
  return lines.filter((line) => line.includes('[span.gen_ai.inference.client]') && line.includes('fails the v1.41 JSON schema'));
}

async function runAgent(replies: ScriptedReply[], message: string): Promise<void> {
  const provider = scripted({ name: 'openai', replies });
  await Agent.create({ provider, id: 'big', name: 'Big', model: 'gpt-4o-mini' }).system('s'.repeat(10_000)).tool(echo).build().run(message);
}

describe('content capture at the 8 KiB cap', () => {
  let telemetry: SemconvTelemetry;

  beforeAll(() => {
    telemetry = startSemconvTelemetry({ captureContent: true });
  });

  afterAll(async () => {
    await telemetry.shutdown();
  });

  it('cuts long strings and keeps every message attribute valid against its schema', async () => {
    await runAgent(
      [
        { toolCalls: [{ name: 'echo', args: { text: 'y'.repeat(20_000) } }], usage: { input: 1, output: 1 } },
        { content: 'z'.repeat(20_000), usage: { input: 1, output: 1 } },
      ],
      'x'.repeat(20_000),
    );
    expect(chatSchemaViolations(telemetry)).toEqual([]);
  });

  // whole messages (or parts) are dropped from the middle, with a marker, never a non-list.
  it('a history too long to fit is still a valid message list', async () => {
    const calls = Array.from({ length: 200 }, (_, i) => ({ id: `c${i}`, name: 'echo', args: { text: `t${i}` } }));
    await runAgent([{ toolCalls: calls, usage: { input: 1, output: 1 } }, { content: 'done', usage: { input: 1, output: 1 } }], 'go');
    expect(chatSchemaViolations(telemetry)).toEqual([]);
  });
});
