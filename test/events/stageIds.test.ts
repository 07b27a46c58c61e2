import { buildRuntimeStageId, parseRuntimeStageId } from 'footprintjs/trace';
import { describe, expect, it } from 'vitest';
import { stageIds } from '../../src/events/index.js';

describe("footprintjs's stage-id format", () => {
  it('takes the subflow path from a runtime stage id', () => {
    expect(stageIds.subflowPathOf('desk/billing/call-llm#7')).toEqual(['desk', 'billing']);
    expect(stageIds.subflowPathOf('seed#0')).toEqual([]);
    expect(stageIds.subflowPathOf(stageIds.ROOT_STAGE_ID)).toEqual([]);
    expect(stageIds.withoutIndex('desk/billing#12')).toBe('desk/billing');
  });

  it("agrees with footprintjs's own build and parse of the format, round trip included", () => {
    const ids = [buildRuntimeStageId('call-llm', 7, 'desk/billing'), buildRuntimeStageId('seed', 0), stageIds.ROOT_STAGE_ID, 'a/b/c/d#12'];
    expect(ids.map((id) => [stageIds.subflowPathOf(id), stageIds.withoutIndex(id)])).toEqual([
      [['desk', 'billing'], 'desk/billing/call-llm'],
      [[], 'seed'],
      [[], '__root__'],
      [['a', 'b', 'c'], 'a/b/c/d'],
    ]);
    for (const id of ids) {
      const parsed = parseRuntimeStageId(id);
      expect(stageIds.pathKey(stageIds.subflowPathOf(id))).toBe(parsed.subflowPath ?? '');
      expect(buildRuntimeStageId(parsed.stageId, parsed.executionIndex, stageIds.pathKey(stageIds.subflowPathOf(id)) || undefined)).toBe(id);
    }
  });

  it('turns paths into keys and back', () => {
    expect(stageIds.pathKey(['desk', 'billing'])).toBe('desk/billing');
    expect(stageIds.pathKey([])).toBe('');
    expect(stageIds.pathOfKey('desk/billing')).toEqual(['desk', 'billing']);
    expect(stageIds.pathOfKey('')).toEqual([]);
  });

  it('lists ancestors innermost first, and enclosing paths outermost first', () => {
    expect(stageIds.ancestorKeys(['a', 'b', 'c'])).toEqual(['a/b/c', 'a/b', 'a']);
    expect(stageIds.ancestorKeys(['a', 'b', 'c'], { includeRoot: true, maxDepth: 2 })).toEqual(['a/b', 'a', '']);
    expect(stageIds.ancestorKeys([], { includeRoot: true })).toEqual(['']);
    expect(stageIds.enclosingPaths(['a', 'b'])).toEqual([['a'], ['a', 'b']]);
  });

  it('finds the innermost subflow a lookup knows, never the top level', () => {
    const known = new Map([['a', 1], ['a/b', 2]]);
    expect(stageIds.nearest(['a', 'b', 'c'], (key) => known.get(key))).toBe(2);
    expect(stageIds.nearest(['a', 'x'], (key) => known.get(key))).toBe(1);
    expect(stageIds.nearest(['z'], (key) => known.get(key))).toBeUndefined();
  });

  it('strips the subflow prefix from display names and matches stage names', () => {
    expect(stageIds.displayName('desk/billing/Call LLM', ['desk', 'billing'])).toBe('Call LLM');
    expect(stageIds.displayName('Call LLM', [])).toBe('Call LLM');
    expect(stageIds.isStage('desk/call-llm', 'call-llm')).toBe(true);
    expect(stageIds.isStage('desk/recall-llm', 'call-llm')).toBe(false);
  });
});
