/**
 * One iteration's tool calls, run concurrently: each call is either a result kept from before a
 * pause (reused, not reported again), a read_skill request (answered by the skill cursor), or a user
 * tool (validated and run by the tool runner). Every call's end is reported the moment it settles,
 * so its span ends when the tool did. A pause asked for by one tool is kept by the latch.
 *
 * Bounds (AgentOptions): at most `maxToolCallsPerReply` calls of the reply run, the rest are answered
 * `too_many_calls` without running, by one refusal for them all (answeredCalls.ts); at most `toolConcurrency` run at once, the rest wait (a call is
 * reported as started when it starts, not while it waits). Once the run is cancelled, a waiting call
 * never starts.
 */
import { emit, type EventPayloads } from '../../../../events/index.js';
import type { ToolCall } from '../../../providers/index.js';
import { READ_SKILL, type SkillTurnState } from '../../../skills/index.js';
import type { AgentConfig } from '../../config.js';
import type { SavedToolResult, Turn } from '../../state.js';
import { currentRun, FIXED_ERROR_TYPES } from '../../../run/index.js';
import { cancelledOutcome, runToolCall, type CompiledTool, type ToolOutcome } from '../../toolRunner.js';
import { offeredTools } from '../../toolTable.js';
import { toolSpec } from '../callLLM.js';
import type { AgentScope, StageScope } from '../scope.js';
import { answeredCalls } from './answeredCalls.js';
import { ConcurrencyGate } from './concurrencyGate.js';
import { PauseLatch } from './pauseLatch.js';
import { answerReadSkill, requestedSkill } from './readSkillCall.js';

export class ToolIteration {
  readonly calls: readonly ToolCall[];
  readonly iteration: number;
  /** Results finished before a pause, by tool call id (a resumed stage reuses them): the turn's own, read only. */
  readonly done: Readonly<Record<string, SavedToolResult>>;
  /** The turn's skill state, copied: read_skill calls move it; the stage writes it back. */
  readonly skillState?: SkillTurnState;
  readonly pause: PauseLatch;
  private readonly agentId: string;
  /** The names offered to the model this iteration (the tool slot, stages/context.ts). */
  private readonly available: readonly string[];
  /** The tools offered now: a name a tool source dropped since the model call is an unknown tool. */
  private readonly offered: ReadonlyMap<string, CompiledTool>;
  /** The names offered this iteration that are still offered: what an unknown tool's result lists. */
  private readonly stillOffered: string[];

  /** `agentScope` pauses the run (pauseLatch.ts); `scope` is the same, its env read once (scope.ts). */
  constructor(
    agentScope: AgentScope,
    private readonly scope: StageScope,
    private readonly turn: Turn,
    private readonly config: AgentConfig,
  ) {
    this.agentId = config.member.id;
    this.calls = turn.response?.toolCalls ?? [];
    this.iteration = turn.iteration;
    this.done = turn.doneTools;
    this.skillState = turn.skill ? { ...turn.skill } : undefined;
    this.available = turn.request.tools;
    this.offered = offeredTools(config, this.skillState);
    this.stillOffered = this.available.filter((name) => name === READ_SKILL || this.offered.has(name));
    this.pause = new PauseLatch(agentScope, turn, this.agentId);
  }

  /** Runs the calls within the agent's bounds; resolves once all have settled, in the model's order. */
  runAll(): Promise<ToolOutcome[]> {
    const { maxCallsPerReply, concurrency } = this.config.toolLimits;
    const answered = answeredCalls(this.calls, maxCallsPerReply);
    // A reply of no more calls than may run at once has none that would wait: its calls skip the gate.
    const gate = answered.length > concurrency ? new ConcurrencyGate(concurrency) : undefined;
    return Promise.all(
      answered.map((call, index) => {
        const saved = this.done[call.id];
        if (saved) return { call, status: saved.status, text: saved.text, durationMs: 0 };
        if (index >= maxCallsPerReply) return this.refuse(call, index, maxCallsPerReply);
        return gate ? gate.run(() => this.runOne(call)) : this.runOne(call);
      }),
    );
  }

  private async runOne(call: ToolCall): Promise<ToolOutcome> {
    if (this.runSignal?.aborted) return cancelledOutcome(call, 0);
    this.reportStart(call);
    const outcome = await this.execute(call);
    this.reportEnd(outcome, this.pause.request?.call.id === call.id);
    return outcome;
  }

  /** The call past maxToolCallsPerReply, standing for every call after it: reported, never run, and the model is told why. */
  private refuse(call: ToolCall, index: number, cap: number): ToolOutcome {
    this.reportStart(call);
    const asked = this.calls.length;
    const alone = index + 1 === asked;
    const outcome: ToolOutcome = {
      call,
      status: 'too_many_calls',
      text: alone
        ? `Tool call not run: this reply asked for ${asked} tool calls and at most ${cap} run per reply. Ask again for the ones you still need.`
        : `Tool calls not run: this reply asked for ${asked} tool calls and at most ${cap} run per reply; calls ${index + 1} to ${asked} were not run. Ask again for the ones you still need.`,
      error: {
        type: FIXED_ERROR_TYPES.tooManyCalls,
        message: alone ? `call ${index + 1} of ${asked} in one reply; at most ${cap} run` : `calls ${index + 1} to ${asked} of ${asked} in one reply; at most ${cap} run`,
      },
      durationMs: 0,
    };
    this.reportEnd(outcome, false);
    return outcome;
  }

  private get runSignal(): AbortSignal | undefined {
    return this.scope.$getEnv().signal;
  }

  private reportStart(call: ToolCall): void {
    const start: EventPayloads['footprint.call.tool_start'] = {
      agentId: this.agentId,
      iteration: this.iteration,
      toolCallId: call.id,
      toolName: call.name,
      description: this.descriptionOf(call.name),
      parallelCount: this.calls.length,
      args: call.args,
    };
    if (call.name === READ_SKILL && this.config.cursor) start.skill = requestedSkill(call.args?.id);
    emit(this.scope, 'footprint.call.tool_start', start);
  }

  /** The description the model was given for this tool (read_skill's depends on the cursor). */
  private descriptionOf(name: string): string | undefined {
    return this.available.includes(name) ? toolSpec(this.config, this.skillState, this.offered, name)?.description : undefined;
  }

  private execute(call: ToolCall): Promise<ToolOutcome> | ToolOutcome {
    const { cursor } = this.config;
    if (call.name === READ_SKILL && cursor && this.skillState) {
      return answerReadSkill({ scope: this.scope, turn: this.turn, config: this.config, cursor, skillState: this.skillState, call });
    }
    const compiled = this.available.includes(call.name) ? this.offered.get(call.name) : undefined;
    return runToolCall(call, compiled, this.stillOffered, {
      agentId: this.agentId,
      producer: { kind: 'tool_call', id: `${this.turn.responseCallId ?? ''}:${call.id}`, runId: currentRun(this.scope)!.runId },
      runSignal: this.runSignal,
      timeoutMs: this.config.toolLimits.timeoutMs,
      pause: (question: string) => this.pause.pause(call, question),
    });
  }

  private reportEnd(outcome: ToolOutcome, paused: boolean): void {
    emit(this.scope, 'footprint.call.tool_end', {
      agentId: this.agentId,
      iteration: this.iteration,
      toolCallId: outcome.call.id,
      toolName: outcome.call.name,
      status: paused ? 'paused' : outcome.status,
      durationMs: outcome.durationMs,
      result: paused ? '' : outcome.text,
      error: paused ? undefined : outcome.error,
    });
  }
}
