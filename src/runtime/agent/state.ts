/**
 * What an agent turn keeps. Its flow state (the footprintjs scope) holds nothing: everything the
 * stages read and change at every step is the turn's record, kept in the run's store at the agent's
 * place (turn.ts), and Final returns the answer. The record is plain JSON, so a paused turn can be resumed.
 */
import type { ModelCallTotals } from '../../events/index.js';
import type { LLMResponse } from '../providers/index.js';
import type { LastToolResult, OnTrip, SkillTurnState, TurnGuard } from '../skills/index.js';
import type { ToolStatus } from './toolRunner.js';

export interface SavedToolResult {
  status: ToolStatus;
  text: string;
}

/**
 * The flow state: empty. footprintjs copies it on every stage that writes, so no stage writes there:
 * the turn's record is found from the stage's place (turn.ts), and Final returns the answer.
 */
export type AgentState = Record<never, never>;

/** The turn's record: its stages read and change it in place between and within stages. */
export interface Turn {
  turnId: string;
  userMessage: string;
  iteration: number;
  /** The conversation lives in the run's store under this key (see conversation.ts). */
  historyKey: string;
  /** How many messages the conversation opened with (what the turn was given); the rest it added. */
  openedWith: number;
  /**
   * The slots (system prompt, tool names) as assembled for CallLLM (stages/context.ts), by reference: the
   * conversation stays in the run's store and tool schemas in the agent's config. Replaced as a whole.
   */
  request: { readonly systemPrompt?: string; readonly tools: readonly string[] };
  response?: Pick<LLMResponse, 'content' | 'toolCalls'>;
  /** The model call that gave `response`: the producer of its tool calls' results, and of the answer. */
  responseCallId?: string;
  /** The hop (footprint.skill.hop's hopId) that entered the current skill: its body's producer. */
  skillHop?: string;
  /** Results of this iteration's tool calls that already ran (a paused iteration resumes with them). */
  doneTools: Record<string, SavedToolResult>;
  pausedAt?: number;
  lastTool?: LastToolResult;
  /** What the turn has spent so far, its model-call records added up (events/modelCalls.ts); replaced as a whole. */
  totals: Readonly<ModelCallTotals>;
  /** Replaced as a whole: ToolCalls works on a copy while read_skill calls run concurrently, then writes it back. */
  skill?: Readonly<SkillTurnState>;
  /** The turn's loop guards (skill graphs only). */
  loopGuard?: TurnGuard;
  /** A trip the turn has yet to act on, at its next model call. */
  pendingTrip?: Exclude<OnTrip, 'label'>;
  stopped?: { reason: 'max_iterations' | 'loop_guard'; iteration: number };
  /** The validated structured output of the turn's answer (AgentOptions.output). */
  output?: unknown;
}
