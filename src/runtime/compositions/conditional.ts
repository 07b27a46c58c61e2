/**
 * Conditional: ordered predicates over the input message pick exactly one member; the first that
 * matches wins, and the mandatory fallback takes everything else. The choice is a routing decision:
 * composition.route_decided names the branch, the rule that chose it (a predicate or the fallback)
 * and any evidence the predicate returned, and the chosen member's events carry it in meta.route.
 *
 *   const desk = Conditional.create({ id: 'desk' })
 *     .when('billing', ({ message }) => /invoice|refund/i.test(message), billingAgent)
 *     .when('urgent', ({ message }) => ({ match: message.includes('!'), evidence: { bangs: 1 } }), urgentAgent)
 *     .otherwise('general', generalAgent)
 *     .build();
 */
import { flowChart, type FlowChart } from 'footprintjs';
import { emit, type MemberRef } from '../../events/index.js';
import { ConfigError, quietLogger, Runner, stage, runtimeChart, type MountedMember } from '../run/index.js';
import { Composition, type CompositionOptions } from './composition.js';
import { closingStage, openingStage, type CompositionScope, type CompositionState } from './lifecycle.js';
import { answerKey } from './lineage.js';
import { checkMember, mountOptions } from './members.js';

const STAGES = ['enter', 'route', 'exit'] as const;

/** A predicate's verdict: a plain boolean, or a match with the evidence behind it (kept in the trace). */
export type Verdict = boolean | { match: boolean; evidence?: unknown };

export type Predicate = (input: { message: string }) => Verdict;

interface Branch extends MountedMember {
  predicate?: Predicate;
}

interface ConditionalState extends CompositionState {
  /** The branch taken; kept so a resumed run replaying this Conditional takes it again, unannounced. */
  chosen: string;
  reply: string;
}

export class Conditional extends Composition {
  readonly kind = 'conditional' as const;
  readonly id: string;
  readonly name: string;

  private constructor(
    options: CompositionOptions,
    private readonly branches: readonly Branch[],
  ) {
    super();
    this.id = options.id ?? 'conditional';
    this.name = options.name ?? this.id;
  }

  static create(options: CompositionOptions = {}): ConditionalBuilder {
    return new ConditionalBuilder(options);
  }

  override members(): readonly MountedMember[] {
    return this.branches.map(({ mountId, runner }) => ({ mountId, runner }));
  }

  override routesTo(): boolean {
    return true;
  }

  protected buildChart(): FlowChart {
    const m: MemberRef = { kind: this.kind, id: this.id };
    const branches = this.branches;
    let decider = flowChart<ConditionalState>('Enter', openingStage<ConditionalState>(m, { childCount: branches.length }), 'enter').addDeciderFunction(
      'Route',
      stage(m, 'route', (scope: CompositionScope<ConditionalState>) => choose(scope, m, branches)),
      'route',
    );
    for (const branch of branches) {
      decider = decider.addSubFlowChartBranch(
        branch.mountId,
        branch.runner.chart(),
        branch.runner.name,
        mountOptions<ConditionalState>(
          branch.mountId,
          (state) => state.current,
          (output) => ({ reply: output }),
          () => true,
        ),
      );
    }
    return runtimeChart(decider
      .end()
      .addFunction('Exit', closingStage<ConditionalState>(m, { close: (scope) => ({ answer: scope.reply, answerFrom: answerKey(scope, scope.chosen) }) }), 'exit')
      .setLogger(quietLogger)
      .build());
  }

  /** @internal used by the builder */
  static fromBranches(options: CompositionOptions, branches: readonly Branch[]): Conditional {
    return new Conditional(options, branches);
  }
}

/** Evaluates the predicates in order and reports the decision; returns the chosen branch id. */
function choose(scope: CompositionScope<ConditionalState>, m: MemberRef, branches: readonly Branch[]): string {
  if (scope.chosen !== undefined) return scope.chosen;
  scope.chosen = decide(scope, m, branches);
  return scope.chosen;
}

function decide(scope: CompositionScope<ConditionalState>, m: MemberRef, branches: readonly Branch[]): string {
  const input = { message: scope.current };
  for (const [index, branch] of branches.entries()) {
    if (!branch.predicate) continue;
    const verdict = branch.predicate(input);
    const match = typeof verdict === 'boolean' ? verdict : verdict?.match === true;
    if (!match) continue;
    emit(scope, 'footprint.composition.route_decided', {
      compositionId: m.id,
      kind: m.kind,
      chosen: branch.mountId,
      rationale: `predicate #${index + 1} ("${branch.mountId}") matched`,
      matched: 'predicate',
      evidence: typeof verdict === 'object' ? verdict.evidence : undefined,
    });
    return branch.mountId;
  }
  const fallback = branches[branches.length - 1]!;
  emit(scope, 'footprint.composition.route_decided', {
    compositionId: m.id,
    kind: m.kind,
    chosen: fallback.mountId,
    rationale: `no predicate matched; the fallback "${fallback.mountId}" took it`,
    matched: 'fallback',
  });
  return fallback.mountId;
}

export class ConditionalBuilder {
  private readonly branches: Branch[] = [];
  private fallback?: Branch;

  constructor(private readonly options: CompositionOptions) {}

  /** Adds a branch; predicates are tried in the order they were added. */
  when(id: string, predicate: Predicate, runner: Runner): this {
    if (typeof predicate !== 'function') throw new ConfigError(`${this.owner()}: when("${id}") needs a predicate function`);
    this.check(id, runner);
    this.branches.push({ mountId: id, runner, predicate });
    return this;
  }

  /** The mandatory fallback: it runs when no predicate matches. */
  otherwise(id: string, runner: Runner): this {
    if (this.fallback) throw new ConfigError(`${this.owner()} already has a fallback ("${this.fallback.mountId}")`);
    this.check(id, runner);
    this.fallback = { mountId: id, runner };
    return this;
  }

  build(): Conditional {
    if (!this.fallback) throw new ConfigError(`${this.owner()} needs an otherwise(id, runner) fallback`);
    if (this.branches.length === 0) throw new ConfigError(`${this.owner()} needs at least one when(id, predicate, runner)`);
    return Conditional.fromBranches(this.options, [...this.branches, this.fallback]);
  }

  private check(id: string, runner: Runner): void {
    const taken = this.fallback ? [...this.branches, this.fallback] : this.branches;
    checkMember(this.owner(), id, runner, taken, STAGES);
  }

  private owner(): string {
    return `Conditional "${this.options.id ?? 'conditional'}"`;
  }
}
