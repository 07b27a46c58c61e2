/**
 * A composition's members: the runners it mounts as footprintjs subflows, by id. The id becomes the
 * subflow mount id, so it must be a valid path segment (footprintjs joins mount paths with '/', and
 * runtime stage ids use '#' and '~'), unique in the composition, and distinct from the ids of the
 * composition's own stages (mounts and stages share one id space in a chart).
 */
import { ConfigError, Runner, type MountedMember } from '../run/index.js';
import { answerKey, type LineageState } from './lineage.js';

const FORBIDDEN = /[/#~\s]/;

export function checkMember(
  owner: string,
  id: unknown,
  runner: unknown,
  existing: readonly MountedMember[],
  reserved: readonly string[],
): void {
  if (typeof id !== 'string' || id === '' || FORBIDDEN.test(id)) {
    throw new ConfigError(`${owner}: member id ${JSON.stringify(id)} must be a non-empty string without "/", "#", "~" or spaces`);
  }
  if (reserved.includes(id)) {
    throw new ConfigError(`${owner}: "${id}" is used by the composition itself (one of its stages or mounts); give the member another id`);
  }
  if (existing.some((member) => member.mountId === id)) {
    throw new ConfigError(`${owner}: two members are named "${id}"`);
  }
  if (!(runner instanceof Runner)) {
    throw new ConfigError(`${owner}: member "${id}" is not a runner (did you forget .build()?)`);
  }
}

/** Runner output as text: the chart contract says a string, anything else is serialised. */
export function asText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output === undefined || output === null) return '';
  return JSON.stringify(output);
}

/**
 * Mount options for the member mounted at `mountId`: its input message is read from the
 * composition's state, and its output is written back by `write` (a subflow's return value is what
 * the outputMapper receives), with the key where the member recorded its answer's origin (lineage.ts).
 * When `given(state)` says the member gets the composition's own input, it gets the conversation
 * the composition was given too (ChartInput.thread). The message's origin is `currentFrom`.
 */
export function mountOptions<S extends { givenThread?: string } & LineageState>(
  mountId: string,
  read: (state: S) => string,
  write: (output: string, state: S, answerFrom: string) => Record<string, unknown>,
  given: (state: S) => boolean = () => false,
) {
  return {
    inputMapper: (state: S) => {
      const lineage = { messageOrigin: state.currentFrom, answerTo: answerKey(state, mountId) };
      return state.givenThread !== undefined && given(state) ? { message: read(state), thread: state.givenThread, ...lineage } : { message: read(state), ...lineage };
    },
    outputMapper: (output: unknown, state: S) => write(asText(output), state, answerKey(state, mountId)),
  };
}
