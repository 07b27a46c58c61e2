/**
 * A runner of one's own (not one of the runtime's charts) whose stages `$emit` events that are no
 * typed event, x.progress at steps 1 and 2, and answer 'done': what a user's own Runner does, for the
 * tests of how such emits reach the instruments (the hub's footprintjs emit recorder).
 */
import { flowChart, type FlowChart, type TypedScope } from 'footprintjs';
import { Runner } from '../../src/index.js';
import { quietLogger, stage } from '../../src/runtime/run/index.js';

export class Reporter extends Runner {
  readonly kind = 'llm_call' as const;
  readonly id = 'reporter';
  readonly name = 'Reporter';
  protected buildChart(): FlowChart {
    const member = { kind: this.kind, id: this.id };
    type S = TypedScope<{ output?: string }>;
    return flowChart<{ output?: string }>('Work', stage(member, 'work', (scope: S) => {
      scope.$emit('x.progress', { step: 1, of: { total: 2 } });
    }), 'work')
      .addFunction('Answer', stage(member, 'answer', (scope: S) => {
        scope.$emit('x.progress', { step: 2 });
        scope.output = 'done';
        return 'done';
      }), 'answer')
      .setLogger(quietLogger)
      .build();
  }
}
