/**
 * One desk run through runner.stream() (`--stream`): it resolves to what run() would, and when given
 * `write`, writes the agents' reply text as it arrives, each reply on a line of its own led by the
 * agent's id. The router's reply (an agent id) is a routing decision, not answer text: not written.
 */
import type { Runner, RunOptions, RunResult } from '../index.js';

export async function streamedRun(runner: Runner, message: string, options: RunOptions, write?: (text: string) => void): Promise<RunResult> {
  const stream = runner.stream(message, options);
  let reply: string | undefined;
  try {
    for await (const part of stream) {
      if (!write || part.type !== 'text' || part.member.kind !== 'agent') continue;
      if (part.callId !== reply) {
        write(`${reply === undefined ? '' : '\n'}${part.member.id} ▸ `);
        reply = part.callId;
      }
      write(part.delta);
    }
  } finally {
    if (reply !== undefined) write?.('\n');
  }
  return stream.result;
}
