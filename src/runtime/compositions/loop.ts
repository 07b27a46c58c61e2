/**
 * Loop: one member runs pass after pass, each pass receiving the previous pass's output as its
 * message; the last output is the answer. `times(n)` runs exactly n passes; `until(done)` stops after
 * the first pass whose output satisfies `done`, or at its ceiling. No loop ever runs more than
 * LOOP_CEILING passes; a loop stopped by its ceiling exits with status 'budget_exhausted'.
 *
 *   const polish = Loop.create({ id: 'polish' }).repeat(editor).until(({ output }) => output.length < 280).build();
 */
import { flowChart, type FlowChart } from 'footprintjs';
import { emit, type MemberRef } from '../../events/index.js';
import { checkNumber, ConfigError, numberSetting, quietLogger, Runner, stage, runtimeChart, type MountedMember } from '../run/index.js';
import { Composition, type CompositionOptions } from './composition.js';
import { closingStage, openingStage, type CompositionScope, type CompositionState } from './lifecycle.js';
import { checkMember, mountOptions } from './members.js';

/** The hard ceiling on passes, whatever a loop asks for. */
export const LOOP_CEILING = 100;

const STAGES = ['enter', 'check', 'again', 'exit'] as const;

export type UntilFn = (pass: { output: string; iteration: number }) => boolean;

type Stop = { kind: 'times'; passes: number } | { kind: 'until'; done: UntilFn; maxPasses: number };

interface LoopState extends CompositionState {
  iteration: number;
  /** Why the loop ended: 'times', 'until' or 'ceiling'. */
  stopReason: string;
}

const CHECK_AGAIN = 'again';
const CHECK_EXIT = 'exit';

export class Loop extends Composition {
  readonly kind = 'loop' as const;
  readonly id: string;
  readonly name: string;

  private constructor(
    options: CompositionOptions,
    private readonly body: MountedMember,
    private readonly stop: Stop,
  ) {
    super();
    this.id = options.id ?? 'loop';
    this.name = options.name ?? this.id;
  }

  static create(options: CompositionOptions = {}): LoopBuilder {
    return new LoopBuilder(options);
  }

  override members(): readonly MountedMember[] {
    return [this.body];
  }

  protected buildChart(): FlowChart {
    const m: MemberRef = { kind: this.kind, id: this.id };
    const stop = this.stop;
    const startPass = (scope: CompositionScope<LoopState>, iteration: number) => {
      scope.iteration = iteration;
      emit(scope, 'footprint.composition.iteration', { compositionId: m.id, iteration });
    };
    return runtimeChart(flowChart<LoopState>('Enter', openingStage<LoopState>(m, { childCount: 1, opened: (scope) => startPass(scope, 1) }), 'enter')
      .addSubFlowChartNext(
        this.body.mountId,
        this.body.runner.chart(),
        this.body.runner.name,
        mountOptions<LoopState>(
          this.body.mountId,
          (state) => state.current,
          (output, _state, answerFrom) => ({ current: output, currentFrom: answerFrom }),
          // The first pass gets the conversation; each later one the pass before's output.
          (state) => state.iteration === 1,
        ),
      )
      .addDeciderFunction(
        'Check',
        stage(m, 'check', (scope: CompositionScope<LoopState>) => {
          const reason = stopReason(stop, scope.current, scope.iteration);
          if (reason === undefined) return CHECK_AGAIN;
          scope.stopReason = reason;
          return CHECK_EXIT;
        }),
        'check',
      )
      .addFunctionBranch(CHECK_AGAIN, 'Again', stage(m, 'again', (scope: CompositionScope<LoopState>) => startPass(scope, scope.iteration + 1)))
      .loopTo(this.body.mountId)
      .addFunctionBranch(
        CHECK_EXIT,
        'Exit',
        closingStage<LoopState>(m, {
          close: (scope) => ({
            answer: scope.current,
            answerFrom: scope.currentFrom,
            status: scope.stopReason === 'ceiling' ? 'budget_exhausted' : 'ok',
            stopReason: scope.stopReason,
          }),
        }),
      )
      .end()
      .setLogger(quietLogger)
      .build());
  }

  /** @internal used by the builder */
  static fromBody(options: CompositionOptions, body: MountedMember, stop: Stop): Loop {
    return new Loop(options, body, stop);
  }
}

/** Why the loop stops after this pass, or undefined to run another. */
function stopReason(stop: Stop, output: string, iteration: number): string | undefined {
  if (stop.kind === 'times') return iteration >= stop.passes ? 'times' : undefined;
  if (stop.done({ output, iteration })) return 'until';
  return iteration >= stop.maxPasses ? 'ceiling' : undefined;
}

export class LoopBuilder {
  private body?: MountedMember;
  private stop?: Stop;

  constructor(private readonly options: CompositionOptions) {}

  /** The member each pass runs; it is mounted under its own id. */
  repeat(runner: Runner): this {
    if (this.body) throw new ConfigError(`${this.owner()} already repeats "${this.body.mountId}"`);
    checkMember(this.owner(), runner instanceof Runner ? runner.id : undefined, runner, [], STAGES);
    this.body = { mountId: runner.id, runner };
    return this;
  }

  /** Runs exactly n passes (1..LOOP_CEILING). */
  times(n: number): this {
    const passes = checkNumber(this.owner(), 'times(n)', n, { min: 1, max: LOOP_CEILING });
    this.setStop({ kind: 'times', passes });
    return this;
  }

  /** Runs until `done` holds for a pass's output, at most `maxPasses` (default and limit LOOP_CEILING). */
  until(done: UntilFn, options: { maxPasses?: number } = {}): this {
    if (typeof done !== 'function') throw new ConfigError(`${this.owner()}: until() takes a function`);
    const maxPasses = numberSetting(this.owner(), 'maxPasses', options?.maxPasses, { min: 1, max: LOOP_CEILING }, LOOP_CEILING);
    this.setStop({ kind: 'until', done, maxPasses });
    return this;
  }

  build(): Loop {
    if (!this.body) throw new ConfigError(`${this.owner()} needs repeat(runner)`);
    if (!this.stop) throw new ConfigError(`${this.owner()} needs times(n) or until(done)`);
    return Loop.fromBody(this.options, this.body, this.stop);
  }

  private setStop(stop: Stop): void {
    if (this.stop) throw new ConfigError(`${this.owner()} already has a stop rule; use times(n) or until(done), not both`);
    this.stop = stop;
  }

  private owner(): string {
    return `Loop "${this.options.id ?? 'loop'}"`;
  }
}
