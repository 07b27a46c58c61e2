/**
 * Parallel: branches run concurrently as footprintjs fork children inside the one executor, each
 * with the Parallel's input; then `merge` receives every branch's result, in declaration order:
 * its output, or its error. A failing branch never fails the run by itself and is never swallowed
 * either: it is reported (composition.branch_end, status 'error', with the error) and handed to
 * merge, and the exit status is then 'partial'. merge decides the answer; if it throws, the run fails
 * at this Parallel's 'merge' stage.
 *
 *   const panel = Parallel.create({ id: 'panel' })
 *     .branch('legal', legalAgent).branch('tech', techAgent)
 *     .merge((results) => results.map((r) => (r.status === 'ok' ? r.output : `(${r.id} failed)`)).join('\n'))
 *     .build();
 */
import { flowChart, type FlowChart, type FlowChartBuilder } from 'footprintjs';
import { emit, ownTextOf, type MemberRef } from '../../events/index.js';
import {
  ConfigError,
  errorType,
  failureOrigin,
  FIXED_ERROR_TYPES,
  handoffFrom,
  newId,
  quietLogger,
  Runner,
  runtimeChart,
  untilAborted,
  type MountedMember,
  type RunInstrument,
} from '../run/index.js';
import { branchFailure, branchFailureInstrument, branchInput } from './branchFailures.js';
import { Composition, type CompositionOptions } from './composition.js';
import { closingStage, openingStage, type CompositionState } from './lifecycle.js';
import { asText, checkMember } from './members.js';

const STAGES = ['fork', 'merge'] as const;

export interface BranchError {
  type: string;
  message: string;
  /** The message is footprint-otel's wording (events/catalog.ts EventError), not content. */
  ownText?: boolean;
  /** The member (possibly nested inside the branch) and stage that threw, when known. */
  member?: MemberRef;
  stage?: string;
}

export type BranchResult = { id: string; status: 'ok'; output: string } | { id: string; status: 'error'; error: BranchError };

export type MergeFn = (results: BranchResult[]) => string | Promise<string>;

interface ParallelState extends CompositionState {
  /** Unique per visit, so branch failures of one pass are never read by another. */
  forkToken: string;
}

export class Parallel extends Composition {
  readonly kind = 'parallel' as const;
  readonly id: string;
  readonly name: string;

  private constructor(
    options: CompositionOptions,
    private readonly branches: readonly MountedMember[],
    private readonly mergeFn: MergeFn,
  ) {
    super();
    this.id = options.id ?? 'parallel';
    this.name = options.name ?? this.id;
  }

  static create(options: CompositionOptions = {}): ParallelBuilder {
    return new ParallelBuilder(options);
  }

  override members(): readonly MountedMember[] {
    return this.branches;
  }

  override ownInstruments(): readonly RunInstrument[] {
    return [branchFailureInstrument];
  }

  protected buildChart(): FlowChart {
    const m: MemberRef = { kind: this.kind, id: this.id };
    const ids = this.branches.map((b) => b.mountId);
    const tokenOf = (state: ParallelState, index: number) => `${state.forkToken}:${index}`;
    const outputKey = (index: number) => `branchOutput${index}`;

    let chart: FlowChartBuilder<any, any> = flowChart<ParallelState>(
      'Fork',
      openingStage<ParallelState>(m, {
        stageId: 'fork',
        childCount: ids.length,
        opened: (scope) => {
          scope.forkToken = newId('fork');
          emit(scope, 'footprint.composition.fork', { compositionId: m.id, branches: ids });
        },
      }),
      'fork',
    );
    this.branches.forEach((branch, index) => {
      chart = chart.addSubFlowChart(branch.mountId, branch.runner.chart(), branch.runner.name, {
        inputMapper: (state: ParallelState) => branchInput({ message: state.current, token: tokenOf(state, index), thread: state.givenThread, messageOrigin: state.currentFrom }),
        outputMapper: (output: unknown) => ({ [outputKey(index)]: asText(output) }),
      });
    });
    const merge = this.mergeFn;
    return runtimeChart(chart
      .addFunction(
        'Merge',
        closingStage<ParallelState>(m, {
          stageId: 'merge',
          close: async (scope) => {
            const results = ids.map((id, index): BranchResult => {
              const output = scope.$getValue(outputKey(index));
              if (typeof output === 'string') return { id, status: 'ok', output };
              return { id, status: 'error', error: describeFailure(branchFailure(scope, tokenOf(scope, index))) };
            });
            for (const result of results) {
              emit(scope, 'footprint.composition.branch_end', {
                compositionId: m.id,
                branch: result.id,
                status: result.status,
                error: result.status === 'error' ? { type: result.error.type, message: result.error.message, ...(result.error.ownText ? { ownText: true } : {}) } : undefined,
              });
            }
            const failed = results.filter((r) => r.status === 'error').map((r) => r.id);
            const answer = asText(await untilAborted(merge(results), scope.$getEnv().signal));
            // merge made the answer of the branches' outputs: the Parallel is its producer.
            const answerFrom = handoffFrom({ kind: 'member', id: m.id });
            return failed.length === 0 ? { answer, answerFrom } : { answer, answerFrom, status: 'partial', stopReason: `failed: ${failed.join(', ')}` };
          },
        }),
        'merge',
      )
      .setLogger(quietLogger)
      .build());
  }

  /** @internal used by the builder */
  static fromBranches(options: CompositionOptions, branches: readonly MountedMember[], merge: MergeFn): Parallel {
    return new Parallel(options, branches, merge);
  }
}

function describeFailure(error: unknown): BranchError {
  if (error === undefined) return { type: FIXED_ERROR_TYPES.branchWithoutOutput, message: 'the branch ended without an output', ownText: true };
  const origin = failureOrigin(error);
  return {
    type: errorType(error),
    message: error instanceof Error ? error.message : String(error),
    ...ownTextOf(error),
    member: origin?.member,
    stage: origin?.stage,
  };
}

export class ParallelBuilder {
  private readonly branches: MountedMember[] = [];
  private mergeFn?: MergeFn;

  constructor(private readonly options: CompositionOptions) {}

  branch(id: string, runner: Runner): this {
    checkMember(this.owner(), id, runner, this.branches, STAGES);
    this.branches.push({ mountId: id, runner });
    return this;
  }

  /** How the branch results become the answer (required: only the caller knows how to combine them). */
  merge(fn: MergeFn): this {
    if (typeof fn !== 'function') throw new ConfigError(`${this.owner()}: merge() takes a function`);
    this.mergeFn = fn;
    return this;
  }

  build(): Parallel {
    if (this.branches.length < 2) throw new ConfigError(`${this.owner()} needs at least two branches`);
    if (!this.mergeFn) throw new ConfigError(`${this.owner()} needs a merge(fn)`);
    return Parallel.fromBranches(this.options, [...this.branches], this.mergeFn);
  }

  private owner(): string {
    return `Parallel "${this.options.id ?? 'parallel'}"`;
  }
}
