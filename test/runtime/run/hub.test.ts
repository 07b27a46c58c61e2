/**
 * The run's event hub delivers in order: every subscriber and every listener of the emitting member
 * sees an event before any of them sees an event raised while it was being delivered (a subscriber
 * or listener emitting in reaction), and each event is delivered once.
 */
import { describe, expect, it } from 'vitest';
import { Agent, scripted, type TypedEvent } from '../../../src/index.js';
import { EventHub } from '../../../src/runtime/run/index.js';
import { MemberIndex } from '../../../src/runtime/run/members.js';

const label = (who: string, event: TypedEvent) => `${who} ${event.type.split('.').at(-1)} ${(event.payload as { iteration?: number }).iteration ?? ''}`.trim();

describe('the run event hub', () => {
  it('delivers an event raised during a delivery after every reader has seen the one that raised it', () => {
    const agent = Agent.create({ provider: scripted({ replies: ['-'] }), model: 'm', id: 'support' }).build();
    const hub = new EventHub('run_1', new MemberIndex(agent));
    const seen: string[] = [];
    hub.subscribe((event) => {
      seen.push(label('first', event));
      // Reacting to the iteration's start, the first subscriber raises the iteration's end.
      if (event.type === 'footprint.agent.iteration_start') hub.publish('footprint.agent.iteration_end', { agentId: 'support', iteration: 1, toolCallCount: 0 }, 'call-llm#1');
    });
    hub.subscribe((event) => void seen.push(label('second', event)));
    agent.on('footprint.agent.*', (event) => void seen.push(label('listener', event)));

    hub.publish('footprint.agent.iteration_start', { agentId: 'support', iteration: 1 }, 'call-llm#1');
    hub.publish('footprint.agent.iteration_start', { agentId: 'support', iteration: 2 }, 'call-llm#3');

    expect(seen).toEqual([
      'first iteration_start 1',
      'second iteration_start 1',
      'listener iteration_start 1',
      'first iteration_end 1',
      'second iteration_end 1',
      'listener iteration_end 1',
      'first iteration_start 2',
      'second iteration_start 2',
      'listener iteration_start 2',
      'first iteration_end 1',
      'second iteration_end 1',
      'listener iteration_end 1',
    ]);
  });

  it('goes on delivering after a reader throws, and delivers what it raised before throwing', () => {
    const agent = Agent.create({ provider: scripted({ replies: ['-'] }), model: 'm', id: 'support' }).build();
    const hub = new EventHub('run_1', new MemberIndex(agent));
    const seen: string[] = [];
    hub.subscribe((event) => {
      if (event.type !== 'footprint.agent.iteration_start') return;
      hub.publish('footprint.agent.iteration_end', { agentId: 'support', iteration: 1, toolCallCount: 0 }, 'call-llm#1');
      throw new Error('instrument bug');
    });
    hub.subscribe((event) => void seen.push(label('second', event)));

    hub.publish('footprint.agent.iteration_start', { agentId: 'support', iteration: 1 }, 'call-llm#1');
    hub.publish('footprint.agent.iteration_start', { agentId: 'support', iteration: 2 }, 'call-llm#3');

    expect(seen).toEqual(['second iteration_start 1', 'second iteration_end 1', 'second iteration_start 2', 'second iteration_end 1']);
  });
});
