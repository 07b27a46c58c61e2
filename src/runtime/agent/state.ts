/** The agent turn's state, kept in the footprintjs scope (plain JSON, so a paused turn can be resumed). */
import type { ModelCallTotals } from '../../events/index.js';
import type { LLMResponse } from '../providers/index.js';
import type { LastToolResult, OnTrip, SkillTurnState, TurnGuard } from '../skills/index.js';
import type { ToolStatus } from './toolRunner.js';

export interface SavedToolResult {
  status: ToolStatus;
  text: string;
}

export interface AgentState {
  turnId: string;
  userMessage: string;
  iteration: number;
  /** The conversation lives in the run's store under this key (see conversation.ts), not in the state. */
  historyKey: string;
  systemPrompt: string;
  toolNames: string[];
  /**
   * What Context assembled from the slots for CallLLM, by reference: the conversation stays in
   * the run's store and tool schemas in the agent's config, so the state (which footprintjs clones on
   * every writing stage) holds no message.
   */
  request: { systemPrompt?: string; tools: string[] };
  response?: Pick<LLMResponse, 'content' | 'toolCalls'>;
  /** Results of this iteration's tool calls that already ran (a paused iteration resumes with them). */
  doneTools: Record<string, SavedToolResult>;
  pausedAt?: number;
  lastTool?: LastToolResult;
  /**
   * What the turn has spent so far, its model-call records added up (events/modelCalls.ts): one key
   * (every key a stage writes costs footprintjs copies).
   */
  totals: ModelCallTotals;
  skill?: SkillTurnState;
  /** The turn's loop guards (skill graphs only). */
  loopGuard?: TurnGuard;
  /** A trip the turn has yet to act on, at its next model call. */
  pendingTrip?: Exclude<OnTrip, 'label'>;
  stopped?: { reason: 'max_iterations' | 'route_trip'; iteration: number };
  output: string;
}
