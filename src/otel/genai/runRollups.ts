/**
 * The run span's roll-ups, accumulated from typed events as they pass: the model-call records of
 * every member of the run added up (events/modelCalls.ts, as an agent turn's totals are), the skill path taken (skills entered, composition branches chosen),
 * the loop-guard trips and escalations (also set on the run span as soon as they happen, because
 * Jaeger searches tags, not events). The run's outcome is not one of them: the runtime decides it once (runtime/run/outcome.ts).
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { addModelCall, noModelCalls, type ModelCallRecord, type ModelCallTotals } from '../../events/index.js';
import {
  boundString,
  ATTR_FOOTPRINT_COST_USD,
  ATTR_FOOTPRINT_ESCALATED,
  ATTR_FOOTPRINT_LLM_CALLS,
  ATTR_FOOTPRINT_SKILL_PATH,
  ATTR_FOOTPRINT_TOKENS_INPUT,
  ATTR_FOOTPRINT_TOKENS_OUTPUT,
  ATTR_FOOTPRINT_TRIP_KINDS,
  secondSpellingIn,
  spellingIn,
  type SemconvMode,
} from '../encoding/index.js';

const MAX_PATH_STEPS = 32;

export class RunRollups {
  private calls: ModelCallTotals = noModelCalls();
  private readonly path: string[] = [];
  private pathDropped = 0;
  private lastStep?: string;
  private readonly trips = new Set<string>();
  private reportedFailure?: string;
  private recordedBelow = false;

  constructor(
    private readonly root: Span,
    private readonly semconv: SemconvMode = 'current',
  ) {}

  /** One model call's record, added up as every total of model calls is (events/modelCalls.ts). */
  llmCall(record: Pick<ModelCallRecord, 'usage' | 'cost'>): void {
    this.calls = addModelCall(this.calls, record);
  }

  /** A routing choice; repeating the choice just made (a router's pick, then its dispatch) adds nothing. */
  step(choice: string): void {
    if (typeof choice !== 'string' || choice === '' || choice === this.lastStep) return;
    this.lastStep = choice;
    if (this.path.length < MAX_PATH_STEPS) this.path.push(choice);
    else this.pathDropped++;
  }

  /** The run reported its failure (run.failed) with this low-cardinality type, e.g. 'cancelled'. */
  failed(type: string): void {
    this.reportedFailure = type;
  }

  /** A failed model call recorded its exception on its chat span: the spans above only mark the failure. */
  failureRecorded(): void {
    this.recordedBelow = true;
  }

  /** Whether a failed call already holds the exception event of the run's failure. */
  get failureRecordedBelow(): boolean {
    return this.recordedBelow;
  }

  /** The failure type the run reported, if it did. */
  get failureType(): string | undefined {
    return this.reportedFailure;
  }

  trip(kind: string): void {
    this.trips.add(kind);
    this.root.setAttribute(ATTR_FOOTPRINT_TRIP_KINDS, [...this.trips].sort().join(','));
  }

  escalated(): void {
    this.root.setAttribute(ATTR_FOOTPRINT_ESCALATED, true);
  }

  attributes(): Attributes {
    const attributes: Attributes = {
      [ATTR_FOOTPRINT_TOKENS_INPUT]: this.calls.tokens.input,
      [ATTR_FOOTPRINT_TOKENS_OUTPUT]: this.calls.tokens.output,
      [ATTR_FOOTPRINT_COST_USD]: this.calls.costUsd,
      [ATTR_FOOTPRINT_LLM_CALLS]: this.calls.llmCalls,
    };
    if (this.path.length > 0) {
      const more = this.pathDropped > 0 ? `>+${this.pathDropped} more` : '';
      const path = boundString(this.path.join('>') + more);
      attributes[spellingIn(this.semconv, ATTR_FOOTPRINT_SKILL_PATH)] = path;
      const second = secondSpellingIn(this.semconv, ATTR_FOOTPRINT_SKILL_PATH);
      if (second !== undefined) attributes[second] = path;
    }
    return attributes;
  }
}
