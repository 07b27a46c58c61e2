/**
 * The rule of src/otel/encoding/semconv.ts: every emitted name is a string constant whose prefix says
 * what it names (ATTR_ an attribute key, METRIC_ a metric, EVENT_ a span event), beside the few
 * values and versions the conventions define (operation names, link types, an enum value, the
 * schema versions and URLs, the scope) and functions that build names. A table, a map or an
 * unprefixed constant breaks the rule; the probe below proves the check sees one.
 */
import { describe, expect, it } from 'vitest';
import * as semconv from '../../../src/otel/encoding/semconv.js';

const NAME_PREFIXES = ['ATTR_', 'METRIC_', 'EVENT_'] as const;
/** Values of the conventions and the scope's identity: not emitted names, each kind with its own prefix or name. */
const VALUE_CONSTANTS = /^(OP_[A-Z_]+|LINK_[A-Z_]+|DB_SYSTEM_NAME_VALUE_[A-Z_]+|(SEMCONV|GENAI(_DEV)?)_(VERSION|SCHEMA_URL)|INSTRUMENTATION_(NAME|VERSION)|CAPTURE_CONTENT_ENV)$/;
const DOTTED_NAME = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;

function violations(module: Record<string, unknown>): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function') continue;
    if (typeof value !== 'string') {
      found.push(`${name}: a ${value instanceof Map ? 'map' : typeof value}, not a name`);
      continue;
    }
    const prefix = NAME_PREFIXES.find((p) => name.startsWith(p));
    if (prefix !== undefined) {
      if (!DOTTED_NAME.test(value)) found.push(`${name}: '${value}' is not a dotted lower-case name`);
    } else if (!VALUE_CONSTANTS.test(name)) {
      found.push(`${name}: no ATTR_/METRIC_/EVENT_ prefix`);
    }
  }
  return found;
}

describe('semconv.ts exports names by the prefix rule', () => {
  it('every export is a prefixed name, a convention value, a version or a name builder', () => {
    expect(violations(semconv)).toEqual([]);
  });

  it('no two attribute, metric or event constants spell the same name', () => {
    const byValue = new Map<string, string[]>();
    for (const [name, value] of Object.entries(semconv)) {
      if (typeof value !== 'string' || !NAME_PREFIXES.some((p) => name.startsWith(p))) continue;
      byValue.set(value, [...(byValue.get(value) ?? []), name]);
    }
    expect([...byValue.entries()].filter(([, names]) => names.length > 1)).toEqual([]);
  });

  it('the check bites on a table, an unprefixed constant and a badly spelled name (probe)', () => {
    expect(
      violations({
        V1_41_SPELLINGS: new Map([['a.b', 'c.d']]),
        V1_41_NEXT_STEP_STAGE: 'Route',
        ATTR_BAD: 'Not A Key',
        ATTR_FINE: 'footprint.fine',
        OP_CHAT: 'chat',
        spanName: () => 'x',
      }),
    ).toEqual([
      'V1_41_SPELLINGS: a map, not a name',
      'V1_41_NEXT_STEP_STAGE: no ATTR_/METRIC_/EVENT_ prefix',
      "ATTR_BAD: 'Not A Key' is not a dotted lower-case name",
    ]);
  });
});
