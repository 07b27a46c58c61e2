/**
 * Every stop reason, the result object and the run span together: run() resolves (or, cancelled,
 * rejects with RunCancelledError carrying the result) with the stopReason that the run span's
 * outcome and stop reason say too, since both come from one decision (runtime/run/outcome.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, RunCancelledError, scripted, skillGraph, swarm, type RunResult } from '../../src/index.js';
import { refundAgent } from '../fixtures/refundAgent.js';
import { echoAgent } from '../support/compositions.js';
import { answer, diagnoseSkill, fixSkill, pick, PRICING, triageSkill } from '../support/skills.js';
import { startSdk, type Sdk } from '../support/sdk.js';

let sdk: Sdk;
beforeAll(() => {
  sdk = startSdk();
});
afterEach(() => sdk.reset());
afterAll(async () => {
  await sdk.shutdown();
});

/** The run span's outcome and stop reason. */
function runSpan(): { outcome: unknown; stopReason: unknown } {
  const roots = sdk.spans().filter((s) => s.parentSpanContext === undefined);
  expect(roots).toHaveLength(1);
  return { outcome: roots[0]!.attributes['footprint.run.outcome'], stopReason: roots[0]!.attributes['footprint.run.stop_reason'] };
}

/** What the result says that the span must agree with, and who answered. */
const summary = (r: RunResult) => ({ stopReason: r.stopReason, text: r.text, answeredBy: r.answeredBy, paused: r.paused !== undefined });

describe('each stop reason, in the result and on the run span', () => {
  it('answered: the model answered', async () => {
    const { agent } = echoAgent('answers');
    const result = await agent.run('x');
    expect(summary(result)).toEqual({ stopReason: 'answered', text: 'answers(x)', answeredBy: { id: 'answers', kind: 'agent', path: 'agent:answers' }, paused: false });
    expect([result.finishReason, result.usage, result.cost]).toEqual(['end_turn', { input: 10, output: 5 }, { usd: 0, priced: false }]);
    expect(runSpan()).toEqual({ outcome: 'ok', stopReason: undefined });
  });

  it('loop_guard: a skill graph loop guard stopped the agent', async () => {
    const [triage, diagnose, fix] = [triageSkill(), diagnoseSkill(), fixSkill()];
    const graph = skillGraph().entry(triage).edge(triage, diagnose).edge(diagnose, fix).build();
    const provider = scripted({ name: 'small', replies: [pick('diagnose'), pick('triage'), pick('triage'), answer('never')] });
    const agent = Agent.create({ provider, model: 'small-1', id: 'desk', pricing: PRICING }).skillGraph(graph, { maxRejectedRetries: 2, onTrip: 'stop' }).build();
    const result = await agent.run('No light on port 9.');
    expect(summary(result)).toEqual({
      stopReason: 'loop_guard',
      text: 'Stopped early (loop guard) at iteration 4.',
      answeredBy: { id: 'desk', kind: 'agent', path: 'agent:desk' },
      paused: false,
    });
    expect(result.cost.priced).toBe(true);
    expect(runSpan()).toEqual({ outcome: 'stopped_early', stopReason: 'loop_guard' });
  });

  it('max_iterations: the agent reached its iteration cap', async () => {
    const provider = scripted({ replies: [{ toolCalls: [{ name: 'noop' }] }] });
    const agent = Agent.create({ provider, model: 'm', id: 'capped', maxIterations: 2 })
      .tool({ name: 'noop', description: 'Does nothing', inputSchema: { type: 'object' }, execute: () => 'ok' })
      .build();
    const result = await agent.run('x');
    expect(summary(result)).toEqual({
      stopReason: 'max_iterations',
      text: 'Stopped early (max iterations) at iteration 2.',
      answeredBy: { id: 'capped', kind: 'agent', path: 'agent:capped' },
      paused: false,
    });
    expect(result.finishReason).toBe('tool_use');
    expect(runSpan()).toEqual({ outcome: 'stopped_early', stopReason: 'max_iterations' });
  });

  it('budget_exhausted: a swarm spent its hand-offs', async () => {
    const desk = swarm({ id: 'desk', agents: [{ id: 'a', runner: echoAgent('a').agent }], pick: () => 'a', maxHandoffs: 2 });
    const result = await desk.run('x');
    expect(summary(result)).toEqual({
      stopReason: 'budget_exhausted',
      text: 'a(Agent "a" replied:\na(x))',
      answeredBy: { id: 'a', kind: 'agent', path: 'swarm:desk/agent:a' },
      paused: false,
    });
    expect(result.usage).toEqual({ input: 20, output: 10 });
    expect(runSpan()).toEqual({ outcome: 'stopped_early', stopReason: 'budget_exhausted' });
  });

  it('cancelled: run() rejects with RunCancelledError, whose result says so', async () => {
    const slow = echoAgent('slow', { delayMs: 200 }).agent;
    const error = await slow.run('x', { signal: AbortSignal.timeout(20) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunCancelledError);
    const result = (error as RunCancelledError).result!;
    expect(summary(result)).toEqual({ stopReason: 'cancelled', text: '', answeredBy: { id: 'slow', kind: 'agent', path: 'agent:slow' }, paused: false });
    expect(result.messages).toEqual([{ role: 'user', content: 'x' }]);
    expect(runSpan()).toEqual({ outcome: 'cancelled', stopReason: undefined });
  });

  it('paused: a tool asked a human; the result holds the checkpoint and the question', async () => {
    const result = await refundAgent().run('Refund INV-7');
    expect(summary(result)).toMatchObject({ stopReason: 'paused', text: '', paused: true });
    expect(result.paused!.question).toBe(result.paused!.checkpoint.question);
    expect(runSpan()).toEqual({ outcome: 'paused', stopReason: undefined });
  });
});
