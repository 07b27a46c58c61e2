/**
 * Guards src/otel/encoding/semconv.ts, where the bridge copies attribute keys: every non-footprint key string
 * written there must exist in the pinned v1.41 model and not be deprecated in it; keys that are
 * stable in @opentelemetry/semantic-conventions must be imported from that package instead of copied
 *, and each copied GenAI key needs a doc line.
 */
import { readFileSync } from 'node:fs';
import * as conventions from '@opentelemetry/semantic-conventions';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadCurrentModel } from '../support/semconv/currentModel.js';
import { GENAI_DEV_FIXTURE_DIR, loadDevModel } from '../support/semconv/devModel.js';
import { metricDefinition } from '../support/semconv/metricDefinitions.js';
import { loadSemconvModel } from '../support/semconv/index.js';

const SOURCE = readFileSync(new URL('../../src/otel/encoding/semconv.ts', import.meta.url), 'utf8');

/** Exported `PREFIX_…` constants whose value is a dotted lower-case name, outside footprint.*. */
function copiedKeys(source: string, prefix = 'ATTR_|EVENT_'): string[] {
  const pattern = new RegExp(`^export const (?:${prefix})\\w+ = '([a-z][a-z0-9_]*(?:\\.[a-z0-9_]+)+)';`, 'gm');
  const keys = [...source.matchAll(pattern)].map((match) => match[1]!);
  return [...new Set(keys.filter((key) => !key.startsWith('footprint.')))].sort();
}

/** Exported `= 'key'` constants whose previous line does not close a doc comment. */
function undocumentedKeyConstants(source: string): string[] {
  const lines = source.split('\n');
  return lines.flatMap((line, index) => {
    const match = /^export const (\w+) = '(gen_ai\.[^']+)'/.exec(line);
    return match && !lines[index - 1]?.trim().endsWith('*/') ? [match[1]!] : [];
  });
}

/**
 * Keys the round's contracts take from a proposal not merged into any model yet, each with where it
 * is proposed (the docs say "proposed, not merged" next to it).
 */
const PROPOSED_KEYS = new Map([['gen_ai.attribution.link_type', 'open-telemetry/semantic-conventions-genai PR #370']]);

/**
 * Keys defined in the GenAI conventions' development channel (semantic-conventions-genai at the
 * pinned commit, its registry), not in v1.41: taken from there, not deprecated there.
 */
const DEV_CHANNEL_KEYS = new Set(
  (parse(readFileSync(`${GENAI_DEV_FIXTURE_DIR}model/gen-ai/registry.yaml`, 'utf8')) as { attributes: { key: string; deprecated?: unknown }[] }).attributes
    .filter((attribute) => attribute.deprecated === undefined)
    .map((attribute) => attribute.key),
);

const STABLE_KEYS = new Set(
  Object.entries(conventions)
    .filter(([name, value]) => name.startsWith('ATTR_') && typeof value === 'string')
    .map(([, value]) => value as string),
);

describe('attribute keys copied into src/otel/encoding/semconv.ts', () => {
  it('finds the keys it guards (the file still copies gen_ai keys)', () => {
    expect(copiedKeys(SOURCE)).toContain('gen_ai.operation.name');
  });

  it('all gen_ai keys exist in the pinned v1.41 model (or a development-channel metric uses them) and none is deprecated there', () => {
    const model = loadSemconvModel();
    // Event names (gen_ai.evaluation.result) are names of the model's event groups, not attributes.
    const events = model.eventNames();
    // The MCP page's keys (mcp.*, jsonrpc.*, rpc.*) are not vendored: docs/mcp.md cites the page.
    const problems = copiedKeys(SOURCE).filter((key) => key.startsWith('gen_ai.')).flatMap((key) => {
      if (events.live.has(key) || PROPOSED_KEYS.has(key) || DEV_CHANNEL_KEYS.has(key) || loadDevModel().usesAttribute(key)) return [];
      // The current span model (test/fixtures/semconv-genai-e9de14b) defines the agent-skill keys.
      if (!model.attributes.has(key) && loadCurrentModel().attributes.has(key)) return [];
      const definition = model.attributes.get(key);
      if (!definition) return [`${key}: not in v1.41`];
      return definition.deprecated ? [`${key}: deprecated in v1.41`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('every gen_ai metric name is defined by the current model, or by v1.41 or the development channel', () => {
    const model = loadSemconvModel();
    const names = copiedKeys(SOURCE, 'METRIC_').filter((name) => name.startsWith('gen_ai.'));
    expect(names.filter((name) => metricDefinition(model, name, 'current') === undefined && metricDefinition(model, name) === undefined)).toEqual([]);
  });

  it('a proposed key is in no model yet (when one defines it, it leaves the proposed list)', () => {
    const model = loadSemconvModel();
    expect([...PROPOSED_KEYS.keys()].filter((key) => model.attributes.has(key))).toEqual([]);
  });

  it('none is a stable key that @opentelemetry/semantic-conventions exports (import those)', () => {
    expect(copiedKeys(SOURCE).filter((key) => STABLE_KEYS.has(key))).toEqual([]);
  });

  it('every copied gen_ai key constant has a doc line', () => {
    expect(undocumentedKeyConstants(SOURCE)).toEqual([]);
  });
});
