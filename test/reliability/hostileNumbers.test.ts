/**
 * Numbers and sizes from outside that must not break the export: a model named like an Object
 * prototype property (`constructor`, `toString`, `__proto__`, `valueOf`) has no price; a NaN price is
 * no price; a model that reports 1.7e308 tokens is a malformed reply; and a 100 KiB model name (asked
 * for, or answered by the server) stays short on every span. No exported number is null, NaN or
 * infinite; no attribute value is longer than 16 KiB; no span name longer than 256 characters.
 */
import type { Attributes } from '@opentelemetry/api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent, DEFAULT_PRICING, priceFor, RunFailedError, scripted, type LLMProvider, type ScriptedReply } from '../../src/index.js';
import { costOf } from '../../src/runtime/cost/index.js';
import { meteredRuns } from '../support/meter.js';
import { startSdk } from '../support/sdk.js';

const sdk = startSdk({ tracing: { captureContent: true } });
const meter = meteredRuns({});
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

const MAX_ATTRIBUTE = 16 * 1024;

/** Every number exported on spans and metrics that is not finite, and every too-long value or name. */
async function exportProblems(): Promise<string[]> {
  const problems: string[] = [];
  const check = (where: string, attributes: Attributes) => {
    for (const [key, value] of Object.entries(attributes)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === null || item === undefined) problems.push(`${where} ${key} is ${String(item)}`);
        else if (typeof item === 'number' && !Number.isFinite(item)) problems.push(`${where} ${key} is ${item}`);
        else if (typeof item === 'string' && item.length > MAX_ATTRIBUTE) problems.push(`${where} ${key} has ${item.length} chars`);
      }
    }
  };
  for (const span of sdk.spans()) {
    if (span.name.length > 256) problems.push(`span name of ${span.name.length} chars`);
    check(`span ${span.name.slice(0, 40)}`, span.attributes);
    for (const event of span.events) check(`event ${event.name}`, event.attributes ?? {});
  }
  const collection = await meter.collect();
  for (const name of collection.names()) {
    for (const series of collection.series(name)) {
      check(`metric ${name}`, series.attributes);
      if (!Number.isFinite(series.value)) problems.push(`metric ${name} value ${series.value}`);
    }
  }
  return problems;
}

function agentAnswering(reply: ScriptedReply, options: { model?: string; pricing?: Record<string, { input: number; output: number }> } = {}) {
  const provider = scripted({ name: 'openai', replies: () => reply });
  return Agent.create({ provider, model: options.model ?? 'm-num', id: 'numbers', name: 'Numbers', pricing: options.pricing }).build();
}

describe('prices', () => {
  it.each(['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty'])('a model named %s has no price', (model) => {
    expect(priceFor(DEFAULT_PRICING, model)).toBeUndefined();
    expect(costOf(DEFAULT_PRICING, model, { input: 10, output: 5 })).toEqual({ usd: 0, priced: false });
  });

  it('a NaN price is no price: the call is not priced, and the cost counter stays a number', async () => {
    const agent = agentAnswering({ content: 'ok', usage: { input: 10, output: 5 } }, { pricing: { 'm-num': { input: Number.NaN, output: 1 } } });
    const costs: unknown[] = [];
    agent.on('footprint.call.llm_end', (e) => costs.push(e.payload.cost));
    expect((await agent.run('go')).text).toBe('ok');
    expect(costs).toEqual([{ usd: 0, priced: false }]);
    expect(await exportProblems()).toEqual([]);
  });
});

describe('token counts', () => {
  it('1.7e308 tokens is a malformed reply, and nothing infinite is exported', async () => {
    const agent = agentAnswering({ content: 'ok', usage: { input: 1.7e308, output: 1.7e308 } });
    const error = await agent.run('go').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunFailedError);
    expect((error as RunFailedError).message).toContain('usage.input is 1.7e+308, past the largest token count (9007199254740991)');
    expect(await exportProblems()).toEqual([]);
  });
});

describe('a 100 KiB model name', () => {
  it('asked for and answered: every span attribute within 16 KiB, every span name within 256 characters', async () => {
    const huge = 'g'.repeat(100 * 1024);
    const provider: LLMProvider = {
      name: 'openai',
      complete: async () => ({ content: 'ok', toolCalls: [], stopReason: 'stop', usage: { input: 1, output: 1 }, model: `${huge}-answered` }),
    };
    const agent = Agent.create({ provider, model: huge, id: 'numbers', name: 'Numbers' }).build();
    expect((await agent.run('go')).text).toBe('ok');
    expect(sdk.spans().filter((s) => s.name.startsWith('chat g')).map((s) => s.attributes['gen_ai.request.model'])).toEqual([`${'g'.repeat(256)}…(+${100 * 1024 - 256} chars)`]);
    expect(await exportProblems()).toEqual([]);
  });
});
