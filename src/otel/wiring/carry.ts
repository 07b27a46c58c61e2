/**
 * What a paused traced run puts into the checkpoint, and reads back on resume: the run span's W3C
 * context and the identities of the member spans that were open, under keys the runtime merges
 * with every other instrument's carry.
 */
import type { MemberIdentity } from '../placement/index.js';

export const CARRY_TRACEPARENT = 'traceparent';
export const CARRY_TRACESTATE = 'tracestate';
export const CARRY_MEMBERS = 'footprint-otel.members';

/** The carried member identities, keeping only well-formed entries (a checkpoint is untrusted JSON). */
export function readMembers(value: unknown): Record<string, MemberIdentity> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const members: Record<string, MemberIdentity> = {};
  for (const [key, identity] of Object.entries(value)) {
    if (isIdentity(identity)) members[key] = { name: identity.name, attributes: identity.attributes };
  }
  return members;
}

function isIdentity(value: unknown): value is MemberIdentity {
  if (typeof value !== 'object' || value === null) return false;
  const { name, attributes } = value as Partial<Record<keyof MemberIdentity, unknown>>;
  return typeof name === 'string' && typeof attributes === 'object' && attributes !== null;
}
