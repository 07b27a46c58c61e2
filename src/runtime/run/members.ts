/**
 * Maps a stage's subflow path to the runner (member) that owns it. Compositions mount children as
 * footprintjs subflows, so the runtime stage id 'desk/billing/call-llm#7' belongs to the member
 * mounted at 'desk/billing'. Built once per top-level runner; the tree is fixed after build().
 */
import { routeWithin, stageIds, type MemberRef } from '../../events/index.js';
import type { Runner } from './runner.js';

export interface MemberEntry {
  runner: Runner;
  member: MemberRef;
  /** 'kind:id' from the top-level runner down to this member. */
  compositionPath: string[];
  /** Mount path key ('' for the top-level runner). */
  key: string;
  /** Routing choices in force for this member (see EventMeta.route). */
  route: string;
}

export class MemberIndex {
  private readonly byPath = new Map<string, MemberEntry>();
  readonly maxDepth: number;

  constructor(root: Runner) {
    let depth = 0;
    const walk = (runner: Runner, path: string[], chain: string[], route: string) => {
      const compositionPath = [...chain, `${runner.kind}:${runner.id}`];
      const key = stageIds.pathKey(path);
      this.byPath.set(key, { runner, member: { kind: runner.kind, id: runner.id }, compositionPath, key, route });
      depth = Math.max(depth, path.length);
      for (const child of runner.members()) {
        const childRoute = runner.routesTo(child.mountId) ? routeWithin(route, runner.id, child.mountId) : route;
        walk(child.runner, [...path, child.mountId], compositionPath, childRoute);
      }
    };
    walk(root, [], [], '');
    this.maxDepth = depth;
  }

  /** The emitting member first, then its ancestors up to the top-level runner. */
  chain(subflowPath: readonly string[]): MemberEntry[] {
    const out: MemberEntry[] = [];
    for (const key of stageIds.ancestorKeys(subflowPath, { includeRoot: true, maxDepth: this.maxDepth })) {
      const entry = this.byPath.get(key);
      if (entry) out.push(entry);
    }
    return out;
  }

  entries(): Iterable<MemberEntry> {
    return this.byPath.values();
  }
}
