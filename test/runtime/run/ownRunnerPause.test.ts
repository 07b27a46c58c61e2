/**
 * A Runner of one's own (a chart a user writes, not one of the runtime's) may pause with footprintjs's
 * own interrupt(): its checkpoint holds no agent turn, and it resumes all the same. The run store's
 * check of a checkpoint asks for an agent's turn only when the run paused in an agent's ToolCalls
 * stage (agent/turn.ts, run/store.ts).
 */
import { flowChart, interrupt, type FlowChart, type TypedScope } from 'footprintjs';
import { describe, expect, it } from 'vitest';
import { isPaused, Runner } from '../../../src/index.js';
import { quietLogger, stage } from '../../../src/runtime/run/index.js';

type AskState = { answer?: string };

class Asker extends Runner {
  readonly kind = 'llm_call' as const;
  readonly id = 'asker';
  readonly name = 'Asker';
  protected buildChart(): FlowChart {
    const member = { kind: this.kind, id: this.id };
    return flowChart<AskState>('Ask', stage(member, 'ask', (scope: TypedScope<AskState>) => {
      scope.answer = interrupt<string>(scope, { reason: 'Ship it?' });
    }), 'ask')
      .addFunction('Answer', stage(member, 'answer', (scope: TypedScope<AskState>) => `answered ${scope.answer}`), 'answer')
      .setLogger(quietLogger)
      .build();
  }
}

describe("a user's own Runner that pauses with footprintjs's interrupt()", () => {
  it('pauses with its question, and its checkpoint (no agent turn in its store) resumes with the answer', async () => {
    const asker = new Asker();
    const first = await asker.run('go');
    if (!isPaused(first)) throw new Error('expected a pause');
    expect(Object.keys(first.paused.checkpoint.store.records).filter((key) => key.startsWith('turn:'))).toEqual([]);
    const second = await asker.resume(first.paused.checkpoint, 'yes');
    expect([second.stopReason, second.text]).toEqual(['answered', 'answered yes']);
  });
});
