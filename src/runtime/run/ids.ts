/**
 * Unique ids for runs, turns and model calls: a random per-process prefix plus a counter, so ids never
 * collide across processes and minting one costs no system randomness on the hot path.
 */
import { randomBytes } from 'node:crypto';

const processPrefix = randomBytes(6).toString('hex');
let counter = 0;

export function newId(prefix: string): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}_${processPrefix}${counter.toString(36).padStart(4, '0')}`;
}
