/**
 * footprintjs's stage-id format, parsed here and nowhere else. A runtime stage id is
 * `[subflowPath/]stageId#executionIndex` ('desk/billing/call-llm#7'): the part before the last '/'
 * is the subflow path the stage runs in (the mount ids of the subflows, outermost first), and the
 * same path joined with '/' is the key footprintjs gives the subflow itself ('desk/billing').
 * Every layer that maps a stage to its member, span or failure goes through these helpers, so a
 * change of the format touches this file only; the id itself is taken apart by footprintjs's own
 * parser (`parseRuntimeStageId`), so the two cannot disagree.
 */
import { parseRuntimeStageId } from 'footprintjs/trace';

/** A subflow path: mount ids from the top-level chart down; [] is the top-level chart itself. */
export type SubflowPath = readonly string[];

/** The stage id footprintjs gives the run itself (run-level hooks and derived events use it). */
export const ROOT_STAGE_ID = '__root__#0';

/** 'a/b/stage#3' -> 'a/b/stage' (the execution index dropped). */
export function withoutIndex(runtimeStageId: string): string {
  const { subflowPath, stageId } = parseRuntimeStageId(runtimeStageId);
  return subflowPath === undefined ? stageId : `${subflowPath}/${stageId}`;
}

/** The subflow path of a runtime stage id: 'a/b/stage#3' -> ['a', 'b']; 'stage#0' -> []. */
export function subflowPathOf(runtimeStageId: string): string[] {
  const { subflowPath } = parseRuntimeStageId(runtimeStageId);
  return subflowPath === undefined ? [] : pathOfKey(subflowPath);
}

/** The key of the subflow a runtime stage id runs in: 'a/b/stage#3' -> 'a/b'; 'stage#0' -> ''. */
export function subflowKeyOf(runtimeStageId: string): string {
  return parseRuntimeStageId(runtimeStageId).subflowPath ?? '';
}

/** The key of a subflow path, as footprintjs names the subflow: ['a', 'b'] -> 'a/b'; [] -> ''. */
export function pathKey(path: SubflowPath): string {
  return path.join('/');
}

/** The path of a subflow key: 'a/b' -> ['a', 'b']; '' -> []. */
export function pathOfKey(key: string): string[] {
  return key === '' ? [] : key.split('/');
}

/**
 * The keys of `path` and of every enclosing subflow, innermost first: ['a', 'b'] -> ['a/b', 'a'].
 * With `includeRoot` the top-level chart's key '' comes last; `maxDepth` skips deeper prefixes.
 */
export function ancestorKeys(path: SubflowPath, options: { includeRoot?: boolean; maxDepth?: number } = {}): string[] {
  const keys: string[] = [];
  for (let length = Math.min(path.length, options.maxDepth ?? path.length); length > 0; length--) {
    keys.push(pathKey(path.slice(0, length)));
  }
  if (options.includeRoot) keys.push('');
  return keys;
}

/** `path` and every enclosing path, outermost first: ['a', 'b'] -> [['a'], ['a', 'b']]. */
export function enclosingPaths(path: SubflowPath): string[][] {
  return path.map((_, index) => path.slice(0, index + 1));
}

/**
 * The innermost subflow of `path` (never the top level) for which `lookup` finds something. Keys are
 * built as the search goes out (the layouts ask on every stage and event; the innermost usually hits).
 */
export function nearest<T>(path: SubflowPath, lookup: (key: string) => T | undefined): T | undefined {
  for (let length = path.length; length > 0; length--) {
    const found = lookup(pathKey(length === path.length ? path : path.slice(0, length)));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A stage's display name without the subflow prefix footprintjs puts on names inside subflows. */
export function displayName(name: string, path: SubflowPath): string {
  const prefix = path.length === 0 ? '' : `${pathKey(path)}/`;
  return prefix !== '' && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/** Whether a (maybe subflow-prefixed) stage id is the stage `name` refers to. */
export function isStage(stageId: string, name: string): boolean {
  return stageId === name || stageId.endsWith(`/${name}`);
}
