import { describe, expect, it } from 'vitest';
import { Agent, scripted, type TypedEvent } from '../../src/index.js';

function agent() {
  return Agent.create({ provider: scripted({ replies: ['hi there'] }), model: 'm' }).build();
}

describe('runner listeners', () => {
  it('deliver by exact type, by domain wildcard and for everything, until unsubscribed', async () => {
    const a = agent();
    const exact: string[] = [];
    const domain: string[] = [];
    const all: string[] = [];
    const offExact = a.on('footprint.call.llm_end', (e) => exact.push(e.type));
    a.on('footprint.call.*', (e) => domain.push(e.type));
    a.on('*', (e) => all.push(e.type));
    await a.run('hello');
    expect(exact).toEqual(['footprint.call.llm_end']);
    expect(domain).toEqual(['footprint.call.llm_start', 'footprint.call.llm_end']);
    expect(all).toContain('footprint.agent.turn_end');
    offExact();
    await a.run('again');
    expect(exact).toHaveLength(1);
    expect(domain).toHaveLength(4);
  });

  it('isolate a throwing listener: the run and the other listeners go on, the failure is reported', async () => {
    const a = agent();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const after: TypedEvent[] = [];
    a.on('footprint.agent.turn_start', () => {
      throw new Error('listener bug');
    });
    a.on('*', (e) => after.push(e));
    expect((await a.run('hello')).text).toBe('hi there');
    expect(after.map((e) => e.type)).toContain('footprint.agent.turn_end');
    expect(a.listeners.failures).toBe(1);
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(warnings.some((w) => w.includes('listener bug'))).toBe(true);
  });
});
