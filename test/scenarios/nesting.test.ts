/**
 * Runs inside runs, and runs side by side: a runner called from a tool nests under that tool call
 * (under the ToolCalls stage), a runner called from a plain traced chart's stage nests under that
 * stage, both in the caller's trace; and 100 concurrent runs make 100 separate, identical traces
 * with no span shared or parented across runs.
 */
import { FlowChartExecutor, flowChart } from 'footprintjs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { traceExecutor } from '../../src/otel/index.js';
import { Agent, quietLogger, scripted } from '../../src/runtime/index.js';
import { twoToolAgent } from '../support/agents.js';
import { startSdk } from '../support/sdk.js';
import { render, structure } from '../support/traceTree.js';

const sdk = startSdk();
afterAll(() => sdk.shutdown());
beforeEach(() => sdk.reset());

/** A turn's stages up to its first model call (later iterations loop back to CallLLM). */
const AGENT_STAGES = ['Context', 'CallLLM'];

function innerAgent() {
  return Agent.create({ provider: scripted({ replies: ['inner answer'] }), model: 'm2', id: 'inner', name: 'Inner' }).build();
}

describe('a runner run inside another runner', () => {
  it('nests under the tool call that ran it, in the same trace', async () => {
    const inner = innerAgent();
    const provider = scripted({
      replies: (request) => (request.messages.some((m) => m.role === 'tool') ? 'outer answer' : { toolCalls: [{ id: 'd1', name: 'delegate', args: {} }] }),
    });
    const outer = Agent.create({ provider, model: 'm1', id: 'outer', name: 'Outer' })
      .tool({ name: 'delegate', description: 'asks the inner agent', inputSchema: { type: 'object' }, execute: () => inner.run('sub-question') })
      .build();
    expect((await outer.run('question')).text).toBe('outer answer');
    const spans = sdk.spans();
    const at = (depth: number, names: string[]) => names.map((n) => `${'  '.repeat(depth)}${n}`);
    expect(render(spans)).toBe(
      [
        'invoke_agent Outer',
        ...at(1, AGENT_STAGES),
        '    chat m1 [CLIENT]',
        '  ToolCalls',
        '    execute_tool delegate',
        '      invoke_agent Inner',
        ...at(4, AGENT_STAGES),
        '          chat m2 [CLIENT]',
        '        Final',
        '  CallLLM',
        '    chat m1 [CLIENT]',
        '  Final',
      ].join('\n'),
    );
    expect(structure(spans).traceIds).toHaveLength(1);
    expect(structure(spans).problems).toEqual([]);
    expect(sdk.unended()).toEqual([]);
  });

  it('nests under the stage of a plain traced chart that ran it', async () => {
    const inner = innerAgent();
    const chart = flowChart<{ answer?: string }>('Prepare', () => {}, 'prepare')
      .addFunction('Ask', async (scope) => {
        scope.answer = String(await inner.run('from a stage'));
      }, 'ask')
      .addFunction('Done', () => {}, 'done')
      .setLogger(quietLogger)
      .build();
    await traceExecutor(new FlowChartExecutor(chart), { name: 'host' }).run();
    const spans = sdk.spans();
    expect(render(spans)).toBe(
      [
        'run host',
        '  Prepare',
        '  Ask',
        '    invoke_agent Inner',
        ...AGENT_STAGES.map((n) => `      ${n}`),
        '        chat m2 [CLIENT]',
        '      Final',
        '  Done',
      ].join('\n'),
    );
    expect(structure(spans).traceIds).toHaveLength(1);
    expect(sdk.unended()).toEqual([]);
  });
});

describe('100 concurrent runs', () => {
  it('make 100 traces of the same shape, with no span shared or misparented', async () => {
    const runs = Array.from({ length: 100 }, (_, i) => twoToolAgent({ delayMs: i % 7 }).run(`question ${i}`));
    const answers = await Promise.all(runs);
    expect(new Set(answers.map((a) => a.text))).toEqual(new Set(['Invoice 42 is paid.']));
    const spans = sdk.spans();
    const byTrace = new Map<string, typeof spans>();
    for (const span of spans) {
      const id = span.spanContext().traceId;
      byTrace.set(id, [...(byTrace.get(id) ?? []), span]);
    }
    expect(byTrace.size).toBe(100);
    expect(new Set(spans.map((s) => s.spanContext().spanId)).size).toBe(spans.length);
    const shapes = new Set<string>();
    const runIds = new Set<unknown>();
    for (const trace of byTrace.values()) {
      const { roots, problems } = structure(trace);
      expect(roots).toHaveLength(1);
      expect(problems).toEqual([]);
      runIds.add(roots[0].attributes['footprint.run.id']);
      shapes.add(render(trace));
    }
    expect(shapes.size).toBe(1);
    expect(runIds.size).toBe(100);
    expect(sdk.unended()).toEqual([]);
  });
});
