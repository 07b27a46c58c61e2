import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_DOCS, EVENT_TYPES, isFootprintEvent } from '../../src/events/index.js';

/** Every 'footprint.<domain>.<action>' literal that is the first argument of emit(...) or publish(...). */
function emittedInSources(dir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith('.ts') && !full.endsWith(join('events', 'catalog.ts'))) {
        const text = readFileSync(full, 'utf8');
        for (const m of text.matchAll(/\b(?:emit|publish|\$emit)\(\s*(?:[\w.]+,\s*)?'(footprint\.[a-z_]+\.[a-z_]+)'/g)) {
          const list = found.get(m[1]!) ?? [];
          list.push(full);
          found.set(m[1]!, list);
        }
      }
    }
  };
  walk(dir);
  return found;
}

describe('the typed event catalog', () => {
  const emitted = emittedInSources('src');

  it('names every event footprint.<domain>.<action> and documents it', () => {
    for (const type of EVENT_TYPES) {
      expect(type).toMatch(/^footprint\.[a-z_]+\.[a-z_]+$/);
      expect(EVENT_DOCS[type].length).toBeGreaterThan(10);
    }
    const domains = new Set(EVENT_TYPES.map((t) => t.split('.')[1]));
    expect([...domains].sort()).toEqual(['agent', 'call', 'composition', 'conversation', 'loop_guard', 'run', 'skill']);
  });

  it('declares nothing that is never emitted', () => {
    const silent = EVENT_TYPES.filter((t) => !emitted.has(t));
    expect(silent).toEqual([]);
  });

  it('emits nothing that is not declared', () => {
    const undeclared = [...emitted.keys()].filter((t) => !(EVENT_TYPES as string[]).includes(t));
    expect(undeclared).toEqual([]);
  });

  it('isFootprintEvent says yes to the catalog\'s names only, not to the prefix', () => {
    expect(EVENT_TYPES.filter((type) => !isFootprintEvent(type))).toEqual([]);
    expect(['footprint.agent.made_up', 'footprint.', 'agent.turn_start'].map(isFootprintEvent)).toEqual([false, false, false]);
  });
});
