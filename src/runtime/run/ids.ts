/** Short unique ids for runs, turns and model calls (random, so ids never collide across processes). */
import { randomBytes } from 'node:crypto';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
