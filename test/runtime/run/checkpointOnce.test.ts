/**
 * A checkpoint resumes at most once, and only on the runner (and chart) that paused: the same
 * checkpoint resumed again, or three times at once, runs the work after the pause once; a checkpoint
 * edited to name another runner, run or id is refused; a store shared by several runner instances
 * (as processes share one over a database) refuses a resume any of them already made. Every refusal
 * is a CheckpointError with its reason, before anything runs.
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  CheckpointError,
  isPaused,
  MemoryCheckpointStore,
  scripted,
  Sequence,
  type Checkpoint,
  type CheckpointStore,
  type Runner,
} from '../../../src/index.js';
import { refundAgent } from '../../fixtures/refundAgent.js';
import { approvalAgent, echoAgent } from '../../support/compositions.js';

/** A paused run of `runner`: its checkpoint. */
async function pausedCheckpoint(runner: Runner): Promise<Checkpoint> {
  const out = await runner.run('Refund INV-7 please');
  if (!isPaused(out)) throw new Error('expected a pause');
  return out.paused.checkpoint;
}

/** An agent whose paused tool counts how often the work after the pause ran. */
function countingAgent(id = 'refunds') {
  const after = { runs: 0 };
  const provider = scripted({
    replies: (request) =>
      request.messages.some((m) => m.role === 'tool') ? 'done' : { toolCalls: [{ id: 'ref', name: 'refund', args: {} }] },
  });
  const agent = Agent.create({ provider, model: 'm', id })
    .tool({
      name: 'refund',
      description: 'Refunds after approval',
      inputSchema: { type: 'object' },
      execute: async (_args, ctx) => {
        const answer = await ctx.pause('Approve?');
        after.runs++;
        return `refund ${String(answer)}`;
      },
    })
    .build();
  return { agent, after };
}

/** The refusal's reason, or 'resolved' when the promise did not reject with a CheckpointError. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof CheckpointError ? error.reason : `other: ${String(error)}`;
  }
}

describe('a checkpoint resumed more than once', () => {
  it('resumes once; resumed again (on this or a fresh instance) it is refused, already_resumed, and the work runs once', async () => {
    const { agent, after } = countingAgent();
    const checkpoint = await pausedCheckpoint(agent);
    expect((await agent.resume(checkpoint, 'yes')).text).toBe('done');
    const again = await agent.resume(checkpoint, 'yes').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(CheckpointError);
    expect([(again as CheckpointError).reason, (again as CheckpointError).message]).toEqual([
      'already_resumed',
      `checkpoint ${checkpoint.id} of run ${checkpoint.runId} was already resumed; a checkpoint resumes at most once`,
    ]);
    expect((await refusal(countingAgent().agent.resume(JSON.stringify(checkpoint), 'yes')))).toBe('already_resumed');
    expect(after.runs).toBe(1);
  });

  it('a resume whose signal is already aborted is cancelled before it claims: the checkpoint is left to the next', async () => {
    const { agent, after } = countingAgent();
    const checkpoint = await pausedCheckpoint(agent);
    const aborted = new AbortController();
    aborted.abort();
    const cancelled = await agent.resume(checkpoint, 'yes', { signal: aborted.signal }).catch((e: unknown) => e);
    expect((cancelled as Error).name).toBe('RunCancelledError');
    const stream = agent.resumeStream(checkpoint, 'yes', { signal: aborted.signal });
    expect(await stream.result.catch((e: unknown) => (e as Error).name)).toBe('RunCancelledError');
    expect(after.runs).toBe(0);
    expect((await agent.resume(checkpoint, 'yes')).text).toBe('done');
    expect(after.runs).toBe(1);
  });

  it('three resumes at once: exactly one runs, two are refused', async () => {
    const { agent, after } = countingAgent();
    const checkpoint = await pausedCheckpoint(agent);
    const results = await Promise.all([1, 2, 3].map(() => refusal(agent.resume(checkpoint, 'yes'))));
    expect(results.sort()).toEqual(['already_resumed', 'already_resumed', 'resolved']);
    expect(after.runs).toBe(1);
  });

  it('a run that pauses again after a resume gets a new checkpoint, which resumes once in turn', async () => {
    const provider = scripted({
      replies: (request) => {
        const done = request.messages.filter((m) => m.role === 'tool').length;
        return done < 2 ? { toolCalls: [{ id: `ask${done}`, name: 'ask', args: {} }] } : 'both answered';
      },
    });
    const agent = Agent.create({ provider, model: 'm', id: 'twice' })
      .tool({ name: 'ask', description: 'Asks a human', inputSchema: { type: 'object' }, execute: (_a, ctx) => ctx.pause('Go on?') })
      .build();
    const first = await pausedCheckpoint(agent);
    const second = await agent.resume(first, 'yes');
    if (!isPaused(second)) throw new Error('expected a second pause');
    expect(second.paused.checkpoint.id).not.toBe(first.id);
    expect(second.paused.checkpoint.runId).toBe(first.runId);
    expect((await agent.resume(second.paused.checkpoint, 'yes')).text).toBe('both answered');
    expect((await refusal(agent.resume(second.paused.checkpoint, 'yes')))).toBe('already_resumed');
  });

  it('a refused checkpoint (wrong runner, malformed) is not consumed: the right runner still resumes it', async () => {
    const checkpoint = await pausedCheckpoint(refundAgent());
    expect((await refusal(countingAgent('someone-else').agent.resume(checkpoint, 'yes')))).toBe('other_runner');
    expect((await refusal(refundAgent().resume({ ...checkpoint, store: null }, 'yes')))).toBe('malformed');
    expect((await refundAgent().resume(checkpoint, 'no')).text).toBe('Done: invoice INV-7: $40 paid | refund declined');
  });
});

describe('a checkpoint missing parts of its run store', () => {
  /** The checkpoint with its turn records changed by `edit` (a JSON copy: the original stays whole). */
  const withTurns = (checkpoint: Checkpoint, edit: (records: Record<string, Record<string, unknown>>) => void): Checkpoint => {
    const copy = JSON.parse(JSON.stringify(checkpoint)) as Checkpoint;
    edit(copy.store.records as Record<string, Record<string, unknown>>);
    return copy;
  };

  it.each([
    ['its records emptied', (records: Record<string, Record<string, unknown>>) => {
      for (const key of Object.keys(records)) delete records[key];
    }, /^checkpoint run store has no record "turn:\/", which its paused stage resumes with$/],
    ['a turn whose totals are null', (records: Record<string, Record<string, unknown>>) => {
      for (const record of Object.values(records)) record.totals = null;
    }, /^checkpoint run store record "turn:\/" is malformed: totals is not an object of counts$/],
    ['a turn without its conversation', (records: Record<string, Record<string, unknown>>) => {
      for (const record of Object.values(records)) record.historyKey = 'nowhere';
    }, /^checkpoint run store record "turn:\/" is malformed: its conversation "nowhere" is not in the store$/],
  ])('%s: refused as malformed before it is claimed; the paused tool does not run again; the whole checkpoint still resumes', async (_label, edit, message) => {
    const { agent, after } = countingAgent();
    const checkpoint = await pausedCheckpoint(agent);
    const error = await agent.resume(withTurns(checkpoint, edit), 'yes').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).reason).toBe('malformed');
    expect((error as CheckpointError).message).toMatch(message);
    expect(after.runs).toBe(0);
    expect((await agent.resume(checkpoint, 'yes')).text).toBe('done');
    expect(after.runs).toBe(1);
  });
});

describe('a checkpoint edited or resumed on another chart', () => {
  it.each([
    ['names another runner of the same kind', (c: Checkpoint) => ({ ...c, runner: { kind: 'agent', id: 'billing' } }), 'billing'],
    ['has a fresh id (to dodge the once rule)', (c: Checkpoint) => ({ ...c, id: 'checkpoint_fresh' }), 'refunds'],
    ['names another run', (c: Checkpoint) => ({ ...c, runId: 'run_other' }), 'refunds'],
    ['has no binding', (c: Checkpoint) => ({ ...c, binding: undefined }), 'refunds'],
  ])('one that %s is refused as altered, and runs nothing', async (_label, edit, resumerId) => {
    const { agent } = countingAgent();
    const checkpoint = await pausedCheckpoint(agent);
    const resumer = countingAgent(resumerId);
    expect((await refusal(resumer.agent.resume(edit(checkpoint), 'yes')))).toBe('altered');
    expect(resumer.after.runs).toBe(0);
  });

  it('a composition of the same id whose chart changed refuses the checkpoint', async () => {
    const flow = (extraStep: boolean) => {
      const builder = Sequence.create({ id: 'flow' }).step('approve', approvalAgent('approver').agent);
      return (extraStep ? builder.step('after', echoAgent('after').agent) : builder).build();
    };
    const checkpoint = await pausedCheckpoint(flow(false));
    expect((await refusal(flow(true).resume(checkpoint, 'ok')))).toBe('altered');
    expect((await flow(false).resume(checkpoint, 'ok')).text).toBe('approved: human said ok');
  });

  it('a checkpoint of the earlier format says so', async () => {
    const checkpoint = await pausedCheckpoint(refundAgent());
    const error = await refundAgent()
      .resume({ ...checkpoint, format: 'footprint-otel/checkpoint@1' }, 'yes')
      .catch((e: unknown) => e);
    expect((error as CheckpointError).message).toBe(
      'not a footprint-otel checkpoint (expected format footprint-otel/checkpoint@4, not footprint-otel/checkpoint@1: a checkpoint of an earlier version cannot be resumed)',
    );
  });
});

describe('a checkpoint store', () => {
  it('shared by several instances (as processes share one over a database), refuses a resume any of them made', async () => {
    const shared = new MemoryCheckpointStore();
    const checkpoint = await pausedCheckpoint(countingAgent().agent);
    const [one, two] = [countingAgent(), countingAgent()];
    expect((await one.agent.resume(checkpoint, 'yes', { checkpointStore: shared })).text).toBe('done');
    expect((await refusal(two.agent.resume(checkpoint, 'yes', { checkpointStore: shared })))).toBe('already_resumed');
    expect([one.after.runs, two.after.runs]).toEqual([1, 0]);
  });

  it('may answer asynchronously; it is asked with the id, the run id and the runner', async () => {
    const asked: unknown[] = [];
    const taken = new Set<string>();
    const store: CheckpointStore = {
      claim: async (id, about) => {
        asked.push([id, about]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (taken.has(id)) return false;
        taken.add(id);
        return true;
      },
    };
    const { agent, after } = countingAgent();
    const checkpoint = await pausedCheckpoint(agent);
    expect((await agent.resume(checkpoint, 'yes', { checkpointStore: store })).text).toBe('done');
    expect((await refusal(agent.resume(checkpoint, 'yes', { checkpointStore: store })))).toBe('already_resumed');
    expect(asked).toEqual([
      [checkpoint.id, { runId: checkpoint.runId, runner: { kind: 'agent', id: 'refunds' } }],
      [checkpoint.id, { runId: checkpoint.runId, runner: { kind: 'agent', id: 'refunds' } }],
    ]);
    expect(after.runs).toBe(1);
  });

  it('that fails refuses the resume (store_failed) and runs nothing', async () => {
    const { agent, after } = countingAgent();
    const checkpoint = await pausedCheckpoint(agent);
    const broken: CheckpointStore = {
      claim: () => {
        throw new Error('database down');
      },
    };
    const error = await agent.resume(checkpoint, 'yes', { checkpointStore: broken }).catch((e: unknown) => e);
    expect([(error as CheckpointError).reason, (error as CheckpointError).message]).toEqual([
      'store_failed',
      `checkpoint ${checkpoint.id}: the checkpoint store failed to claim it (Error: database down); not resumed`,
    ]);
    expect(after.runs).toBe(0);
  });
});
