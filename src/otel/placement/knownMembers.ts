/**
 * The member identities a layout of runner runs knows before a member's own events arrive, by path
 * key: those carried over a pause (open when the run paused; a resumed run names them again) and
 * those expected from the runner tree (memberDirectory: the spans start named, with the
 * sampling-relevant attributes). Both member layouts read them here.
 */
import type { MemberIdentity, MemberLayoutInit } from './layout.js';

export class KnownMembers {
  private readonly carriedByKey: Record<string, MemberIdentity>;
  private readonly expectedByKey: Record<string, MemberIdentity>;
  /** How many members were carried over the pause (0 for a run that did not resume one). */
  readonly carriedCount: number;

  constructor({ carried, expected }: Pick<MemberLayoutInit, 'carried' | 'expected'>) {
    this.carriedByKey = carried;
    this.expectedByKey = expected ?? {};
    this.carriedCount = Object.keys(carried).length;
  }

  /** The member at `key` was open when the run paused. */
  carried(key: string): MemberIdentity | undefined {
    return this.carriedByKey[key];
  }

  /** The member at `key` as the runner tree describes it. */
  expected(key: string): MemberIdentity | undefined {
    return this.expectedByKey[key];
  }

  /** Known ahead either way; what was carried over the pause wins. */
  ahead(key: string): MemberIdentity | undefined {
    return this.carriedByKey[key] ?? this.expectedByKey[key];
  }
}
