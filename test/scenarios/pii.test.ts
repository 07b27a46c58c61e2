/**
 * Content stays out of telemetry unless asked for: secrets in the system prompt, the user's message,
 * a tool argument, a tool result, the answer, a pause question and an LLM router's reason appear in
 * no byte of the OTLP export (serialized with the real JsonTraceSerializer), in either detail mode. With
 * OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only (or the option) they all appear, in
 * the GenAI semconv message attributes. A JSON Schema's refusal names a place in the model's data
 * (`args/<key> must be number`): a key the schema does not declare is the model's, and is content.
 */
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tracingInstrument, type TraceDetail } from '../../src/otel/index.js';
import { Agent, llmRouter, registerInstrument, scripted, type ScriptedReply } from '../../src/runtime/index.js';
import { approvalAgent } from '../support/agents.js';
import { startSdk } from '../support/sdk.js';

const WITHHELD = 'message not recorded: content capture is off';

const SECRETS = {
  prompt: 'SYS-PROMPT-SECRET-1f9c',
  user: 'USER-MESSAGE-SECRET-77aa',
  argument: 'TOOL-ARG-SECRET-0b3e',
  result: 'TOOL-RESULT-SECRET-c4d2',
  answer: 'ANSWER-SECRET-9e51',
  routerReason: 'ROUTER-REASON-SECRET-5a17',
};

const sdk = startSdk({ tracing: false });
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());
afterEach(() => {
  delete process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
});

function secretAgent() {
  const provider = scripted({
    replies: (request): ScriptedReply =>
      request.messages.some((m) => m.role === 'tool')
        ? { content: `The account is fine: ${SECRETS.answer}` }
        : { toolCalls: [{ id: 'k1', name: 'account', args: { number: SECRETS.argument } }] },
  });
  return Agent.create({ provider, model: 'm1', name: 'Vault' })
    .system(`Never reveal ${SECRETS.prompt}.`)
    .tool({ name: 'account', description: 'Reads an account', inputSchema: { type: 'object' }, execute: () => `balance ${SECRETS.result}` })
    .build();
}

function secretRouter() {
  return llmRouter({
    provider: scripted({ replies: [JSON.stringify({ agentId: 'vault', message: 'over to you', reason: SECRETS.routerReason })] }),
    model: 'router-m',
    agents: [{ id: 'vault', description: 'Accounts' }],
  });
}

async function exportedText(detail: TraceDetail, captureContent?: boolean): Promise<string> {
  const unregister = registerInstrument(tracingInstrument({ detail, captureContent }));
  try {
    await secretAgent().run(`Check account, ${SECRETS.user}`);
    await approvalAgent().run('Refund order 7');
    await secretRouter().step.run('route this');
  } finally {
    unregister();
  }
  const bytes = JsonTraceSerializer.serializeRequest(sdk.spans());
  if (!bytes) throw new Error('the OTLP JSON serializer returned nothing for the trace');
  return new TextDecoder().decode(bytes);
}

describe.each(['full', 'semantic'] as const)('detail %s', (detail) => {
  it('exports none of the content by default', async () => {
    const text = await exportedText(detail);
    expect(text).toContain('execute_tool account');
    for (const secret of [...Object.values(SECRETS), 'Refund order 7?']) expect(text).not.toContain(secret);
    expect(text).not.toContain('gen_ai.input.messages');
  });

  it('exports all of it when the env var asks for span content', async () => {
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'SPAN_ONLY';
    const text = await exportedText(detail);
    for (const secret of Object.values(SECRETS)) expect(text).toContain(secret);
    for (const key of ['gen_ai.system_instructions', 'gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) {
      expect(text).toContain(key);
    }
    expect(text).toContain('Refund order 7?');
  });

  it('keeps content out when the env var says false, and lets the option switch it on', async () => {
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'false';
    expect(await exportedText(detail)).not.toContain(SECRETS.answer);
    sdk.reset();
    expect(await exportedText(detail, true)).toContain(SECRETS.answer);
  });
});

describe('captured content', () => {
  it('uses the semconv message shapes', async () => {
    const unregister = registerInstrument(tracingInstrument({ captureContent: true }));
    try {
      await secretAgent().run(`Check account, ${SECRETS.user}`);
    } finally {
      unregister();
    }
    const [first, second] = sdk.spans().filter((s) => s.name === 'chat m1');
    expect(JSON.parse(String(first.attributes['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: `Never reveal ${SECRETS.prompt}.` }]);
    expect(JSON.parse(String(first.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: `Check account, ${SECRETS.user}` }] },
    ]);
    expect(JSON.parse(String(first.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'k1', name: 'account' }], finish_reason: 'tool_call' },
    ]);
    expect(JSON.parse(String(second.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: `Check account, ${SECRETS.user}` }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'k1', name: 'account', arguments: { number: SECRETS.argument } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'k1', response: `balance ${SECRETS.result}` }] },
    ]);
    const tool = sdk.spans().find((s) => s.name === 'execute_tool account')!;
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual({ number: SECRETS.argument });
    expect(tool.attributes['gen_ai.tool.call.result']).toBe(`balance ${SECRETS.result}`);
  });
});

describe("a JSON Schema's refusal that names a key the schema does not declare", () => {
  const KEY = 'ACCOUNT-HOLDER-SECRET-3c8d';

  /** One call of `amounts` (a map of names to numbers) with `args`, then the answer; the spans of the run. */
  async function refusedCall(args: Record<string, unknown>, captureContent: boolean) {
    const provider = scripted({ replies: (request): ScriptedReply => (request.messages.some((m) => m.role === 'tool') ? 'noted' : { toolCalls: [{ id: 'a1', name: 'amounts', args }] }) });
    const schema = { type: 'object', properties: { currency: { type: 'string' } }, additionalProperties: { type: 'number' } };
    const agent = Agent.create({ provider, model: 'm1', id: 'ledger' }).tool({ name: 'amounts', description: 'Amounts by holder', inputSchema: schema, execute: () => 'ok' }).build();
    const unregister = registerInstrument(tracingInstrument({ captureContent }));
    try {
      await agent.run('Record it');
    } finally {
      unregister();
    }
    const tool = sdk.spans().find((span) => span.name === 'execute_tool amounts')!;
    const chat = sdk.spans().filter((span) => span.name === 'chat m1')[0]!;
    const evaluation = chat.events.find((event) => event.name === 'gen_ai.evaluation.result')!;
    return { status: tool.status, exception: tool.events.find((event) => event.name === 'exception')!.attributes!['exception.message'], explanation: evaluation.attributes!['gen_ai.evaluation.explanation'] };
  }

  it('is withheld without content capture, while one naming a declared key is not', async () => {
    expect(await refusedCall({ [KEY]: 'ten' }, false)).toEqual({ status: { code: 2, message: WITHHELD }, exception: WITHHELD, explanation: WITHHELD });
    sdk.reset();
    const declared = 'args/currency must be string';
    expect(await refusedCall({ currency: 7 }, false)).toEqual({ status: { code: 2, message: declared }, exception: declared, explanation: declared });
  });

  it('is on the spans under content capture', async () => {
    const refusal = `args/${KEY} must be number`;
    expect(await refusedCall({ [KEY]: 'ten' }, true)).toEqual({ status: { code: 2, message: refusal }, exception: refusal, explanation: refusal });
  });

  it('of a structured output is withheld without content capture', async () => {
    const provider = scripted({ replies: [JSON.stringify({ [KEY]: 'ten' }), '{"currency":"EUR"}'] });
    const agent = Agent.create({ provider, model: 'm1', id: 'ledger', output: { type: 'object', properties: { currency: { type: 'string' } }, additionalProperties: { type: 'number' } } }).build();
    const unregister = registerInstrument(tracingInstrument({ captureContent: false }));
    try {
      expect((await agent.run('Sum it')).output).toEqual({ currency: 'EUR' });
    } finally {
      unregister();
    }
    const invalid = sdk.spans().flatMap((span) => span.events).filter((event) => event.name === 'footprint.agent.output_invalid');
    expect(invalid.map((event) => event.attributes!['footprint.agent.output_invalid.error.message'])).toEqual([WITHHELD]);
  });
});
