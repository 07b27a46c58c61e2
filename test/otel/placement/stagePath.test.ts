/**
 * stagePath: the subflow path of a runtime stage id as the layouts read it. A top-level stage (most
 * of a run's stages) shares one frozen empty path, so no stage span pays a parse and new arrays.
 */
import { describe, expect, it } from 'vitest';
import { stageIds } from '../../../src/events/index.js';
import { stagePath } from '../../../src/otel/placement/layout.js';

describe('stagePath', () => {
  it('gives every top-level stage the same frozen empty path', () => {
    const first = stagePath('context#0');
    expect(first).toEqual([]);
    expect(stagePath('call-llm#11')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('reads a stage inside subflows as footprintjs names them', () => {
    expect(stagePath('sf-agent/call-llm#3')).toEqual(['sf-agent']);
    expect(stagePath('outer/inner/tool-calls#7')).toEqual(['outer', 'inner']);
  });

  it('agrees with stageIds.subflowPathOf on every shape of id', () => {
    for (const id of ['context#0', 'a/b/stage#3', 'a/stage#0', 'stage', 'a/stage']) {
      expect(stagePath(id)).toEqual(stageIds.subflowPathOf(id));
    }
  });
});
