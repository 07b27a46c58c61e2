/**
 * What Agent and LLMCall share: both run the agent chart (chart.ts) over one AgentConfig, and a run's
 * result reads their turn's added messages and validated structured output (conversation.ts). The
 * member kind, the public builder and what telemetry is told (RUNNER_FACTS) stay each class's own.
 */
import type { FlowChart } from 'footprintjs';
import type { LLMMessage } from '../providers/index.js';
import { Runner, type MessageOrigin, type RunStore } from '../run/index.js';
import { buildAgentChart } from './chart.js';
import type { AgentConfig } from './config.js';
import { turnAddedMessages, turnAddedOrigins, turnOutput } from './conversation.js';

export abstract class TurnRunner<Output> extends Runner<Output> {
  readonly id: string;
  readonly name: string;

  protected constructor(protected readonly config: AgentConfig) {
    super();
    this.id = config.member.id;
    this.name = config.name;
  }

  protected buildChart(): FlowChart {
    return buildAgentChart(this.config);
  }

  /** The run's new messages past its input: what its turn added (assistant replies, tool results). */
  protected override turnMessages(store: RunStore, turnId: string): readonly LLMMessage[] | undefined {
    return turnAddedMessages(store, turnId);
  }

  /** Where each of those messages came from. */
  protected override turnOrigins(store: RunStore, turnId: string, runId: string): readonly MessageOrigin[] | undefined {
    return turnAddedOrigins(store, turnId, runId);
  }

  /** The turn's answer as validated against the `output` schema, when one was given. */
  protected override turnOutput(store: RunStore, turnId: string): unknown {
    return turnOutput(store, turnId);
  }
}
