/** Shared test fixtures for compositions: scripted agents, an event collector and a stage-order recorder. */
import {
  Agent,
  messageText,
  Parallel,
  Sequence,
  type BranchResult,
  registerInstrument,
  scripted,
  type LLMRequest,
  type Runner,
  type ScriptedReply,
} from '../../src/runtime/index.js';
import type { EventType, TypedEvent } from '../../src/events/index.js';

/** The last user message of a request (what a mounted agent was handed). */
export function lastUser(request: LLMRequest): string {
  return messageText([...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
}

/** An agent that answers `${id}(<its message>)`, optionally after a delay. */
export function echoAgent(id: string, options: { delayMs?: number } = {}) {
  const provider = scripted({
    replies: (request) => ({ content: `${id}(${lastUser(request)})`, usage: { input: 10, output: 5 }, delayMs: options.delayMs }),
  });
  return { agent: Agent.create({ provider, model: 'test-model', id }).build(), provider };
}

/** A Parallel of a Sequence (writer, then editor) and a summarizer: answers `editor(writer(x)) + summarizer(x)`. */
export function echoPanel() {
  const pipe = Sequence.create({ id: 'pipe' }).step('draft', echoAgent('writer').agent).step('edit', echoAgent('editor').agent).build();
  return Parallel.create({ id: 'panel' })
    .branch('long', pipe)
    .branch('short', echoAgent('summarizer').agent)
    .merge((results: BranchResult[]) => results.map((r) => (r.status === 'ok' ? r.output : '')).join(' + '))
    .build();
}

/** An agent without tools whose model call fails. */
export function failingAgent(id: string, message = `${id} model is down`) {
  const provider = scripted({ replies: [{ error: new Error(message) }] });
  return { agent: Agent.create({ provider, model: 'test-model', id }).build(), provider };
}

/** An agent that asks a human through its `approve` tool, then answers with what the human said. */
export function approvalAgent(id: string) {
  const provider = scripted({
    replies: (request): ScriptedReply => {
      const last = request.messages[request.messages.length - 1]!;
      return last.role === 'tool'
        ? { content: `approved: ${last.content}`, usage: { input: 10, output: 5 } }
        : { toolCalls: [{ id: 'call-approve', name: 'approve', args: { amount: 42 } }], usage: { input: 10, output: 5 } };
    },
  });
  const agent = Agent.create({ provider, model: 'test-model', id })
    .tool({
      name: 'approve',
      description: 'Ask a human to approve the amount',
      inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      execute: async (args: { amount: number }, ctx) => `human said ${String(await ctx.pause(`Approve ${args.amount}?`))}`,
    })
    .build();
  return { agent, provider };
}

/** Every event a runner's listeners receive, in order. */
export function collect(runner: Runner): TypedEvent[] {
  const events: TypedEvent[] = [];
  runner.on('*', (event) => events.push(event));
  return events;
}

export function ofType<K extends EventType>(events: TypedEvent[], type: K): TypedEvent<K>[] {
  return events.filter((e): e is TypedEvent<K> => e.type === type);
}

/**
 * Records the runtime stage id of every stage that starts, in every run of this process, through a
 * footprintjs scope recorder attached by a run instrument. Returns the ids without their '#n' index.
 */
export function recordStages(): { stages: string[]; stop: () => void } {
  const stages: string[] = [];
  const stop = registerInstrument({
    id: 'test.stage-order',
    start({ executor }) {
      executor.attachScopeRecorder({
        id: 'test.stage-order',
        onStageStart: (event) => stages.push(event.runtimeStageId.replace(/#\d+$/, '')),
      });
      return undefined;
    },
  });
  return { stages, stop };
}

/** The stages of one tool-less agent turn, mounted at `path`. */
export function agentTurn(path: string): string[] {
  return ['context', 'call-llm', 'final'].map((s) => `${path}/${s}`);
}
