/**
 * A tool that awaits ctx.pause(question) throws footprintjs's pause signal out of its own promise,
 * while the other tool calls of the iteration keep running. The latch keeps the first such request
 * (the run pauses once, for one question) so the stage can act on it after every call has settled,
 * instead of each concurrent promise writing a shared variable.
 */
import { interrupt } from 'footprintjs';
import { emit, now } from '../../../../events/index.js';
import type { ToolCall } from '../../../providers/index.js';
import type { Turn } from '../../state.js';
import type { AgentScope } from '../scope.js';

export interface PauseRequest {
  /** footprintjs's pause signal, rethrown by the stage to pause the run. */
  signal: unknown;
  question: string;
  call: ToolCall;
}

export class PauseLatch {
  private first?: PauseRequest;

  constructor(
    private readonly scope: AgentScope,
    private readonly turn: Turn,
    private readonly agentId: string,
  ) {}

  /** The pause a tool asked for in this iteration, if any. */
  get request(): PauseRequest | undefined {
    return this.first;
  }

  /**
   * ctx.pause for `call`: pauses the run (the thrown signal ends the tool's promise), or, on the
   * resumed run, returns the human's answer and reports the resume.
   */
  async pause(call: ToolCall, question: string): Promise<unknown> {
    let answer: unknown;
    try {
      answer = interrupt<unknown>(this.scope, { reason: question });
    } catch (signal) {
      this.first ??= { signal, question, call };
      throw signal;
    }
    const pausedAt = this.turn.pausedAt ?? now();
    emit(this.scope, 'footprint.run.resumed', {
      question,
      pausedAt,
      waitedMs: Math.max(0, now() - pausedAt),
      toolCallId: call.id,
      toolName: call.name,
      agentId: this.agentId,
    });
    return answer;
  }
}
