/**
 * Sequence: members run one after another, each receiving the previous one's output as its message;
 * the last output is the answer. Members are mounted as linear subflows, so a Sequence is one chart,
 * one run, one trace.
 *
 *   const pipeline = Sequence.create({ id: 'pipeline' }).step('draft', writer).step('edit', editor).build();
 */
import { flowChart, type FlowChart, type FlowChartBuilder } from 'footprintjs';
import type { MemberRef } from '../../events/index.js';
import { ConfigError, quietLogger, Runner, runtimeChart, type MountedMember } from '../run/index.js';
import { Composition, type CompositionOptions } from './composition.js';
import { closingStage, openingStage, type CompositionState } from './lifecycle.js';
import { checkMember, mountOptions } from './members.js';

const STAGES = ['enter', 'exit'] as const;

export class Sequence extends Composition {
  readonly kind = 'sequence' as const;
  readonly id: string;
  readonly name: string;

  private constructor(
    options: CompositionOptions,
    private readonly steps: readonly MountedMember[],
  ) {
    super();
    this.id = options.id ?? 'sequence';
    this.name = options.name ?? this.id;
  }

  static create(options: CompositionOptions = {}): SequenceBuilder {
    return new SequenceBuilder(options);
  }

  override members(): readonly MountedMember[] {
    return this.steps;
  }

  protected buildChart(): FlowChart {
    const m: MemberRef = { kind: this.kind, id: this.id };
    const count = this.steps.length;
    let chart: FlowChartBuilder<any, any> = flowChart<CompositionState>('Enter', openingStage(m, { childCount: count }), 'enter');
    for (const [index, step] of this.steps.entries()) {
      chart = chart.addSubFlowChartNext(
        step.mountId,
        step.runner.chart(),
        step.runner.name,
        mountOptions<CompositionState>(
          step.mountId,
          (state) => state.current,
          (output, _state, answerFrom) => ({ current: output, currentFrom: answerFrom }),
          // The first step gets the conversation; each later one the step before's output.
          () => index === 0,
        ),
      );
    }
    return runtimeChart(chart
      .addFunction('Exit', closingStage(m, { close: (scope) => ({ answer: scope.current, answerFrom: scope.currentFrom }) }), 'exit')
      .setLogger(quietLogger)
      .build());
  }

  /** @internal used by the builder */
  static fromSteps(options: CompositionOptions, steps: readonly MountedMember[]): Sequence {
    return new Sequence(options, steps);
  }
}

export class SequenceBuilder {
  private readonly steps: MountedMember[] = [];

  constructor(private readonly options: CompositionOptions) {}

  step(id: string, runner: Runner): this {
    checkMember(`Sequence "${this.options.id ?? 'sequence'}"`, id, runner, this.steps, STAGES);
    this.steps.push({ mountId: id, runner });
    return this;
  }

  build(): Sequence {
    if (this.steps.length === 0) throw new ConfigError(`Sequence "${this.options.id ?? 'sequence'}" needs at least one step`);
    return Sequence.fromSteps(this.options, [...this.steps]);
  }
}
