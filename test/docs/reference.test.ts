/**
 * The generated section of docs/reference.md (between `<!-- reference:start -->` and `<!-- reference:end -->`)
 * must be the one scripts/reference.ts generates from the catalogs, and it must cover them: every
 * span and event name and attribute constant of src/otel/encoding/semconv.ts, every EVENT_DOCS entry with the
 * payload fields its declaration has, every metric with its Prometheus series. `--check` exits 1 on
 * a stale page and 0 on a current one.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_DOCS, EVENT_TYPES } from '../../src/events/catalog.js';
import { METRIC_CATALOG, prometheusSeries } from '../../src/otel/metrics/index.js';
import * as semconv from '../../src/otel/encoding/semconv.js';
import { END_MARKER, payloadFields, REFERENCE_PAGE, renderReference, spliceReference, START_MARKER } from '../../scripts/reference.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts', 'reference.ts');

function section(readme: string): string | undefined {
  const start = readme.indexOf(`${START_MARKER}\n`);
  const end = readme.indexOf(`\n${END_MARKER}`);
  return start < 0 || end < start ? undefined : readme.slice(start + START_MARKER.length + 1, end);
}

describe('the reference page', () => {
  const reference = renderReference();

  it('is current: the section between the markers is what `npm run reference` generates', () => {
    const readme = readFileSync(REFERENCE_PAGE, 'utf8');
    expect(readme.split(START_MARKER)).toHaveLength(2);
    expect(readme.split(END_MARKER)).toHaveLength(2);
    expect(section(readme), 'docs/reference.md is out of date: run `npm run reference`').toBe(reference);
  });

  it('names every span name, span event and attribute constant of semconv.ts', () => {
    for (const [name, value] of Object.entries(semconv)) {
      if (typeof value !== 'string') continue;
      if (/^(GEN_AI_|FP_|EV_|SERVER_)/.test(name) || name === 'ATTR_ERROR_TYPE' || name === 'CAPTURE_CONTENT_ENV') {
        expect(reference, `${name} (${value})`).toContain(`\`${value}\``);
      }
    }
    for (const name of [semconv.chatSpanName('{model}'), semconv.toolSpanName('{tool}'), semconv.agentSpanName('{agent name}'), semconv.workflowSpanName('{composition id}')]) {
      expect(reference).toContain(`\`${name}\``);
    }
  });

  it('has one line for every event, with its description and payload fields', () => {
    const fields = payloadFields();
    for (const type of EVENT_TYPES) {
      const line = reference.split('\n').find((l) => l.startsWith(`| \`${type}\` |`));
      expect(line, type).toBeDefined();
      expect(line).toContain(EVENT_DOCS[type]);
      expect(fields.get(type)!.length, type).toBeGreaterThan(0);
      for (const field of fields.get(type)!) expect(line).toContain(`\`${field}\``);
    }
    // one of them spelled out, so the payload reader is checked against the declaration itself
    expect(fields.get('footprint.loop_guard.trip')).toEqual([
      'agentId', 'turnId', 'kind', 'skills', 'window?', 'count?', 'iteration', 'tokensSinceLoop', 'costSinceLoopUsd', 'action',
    ]);
  });

  it('has one row for every metric, with its Prometheus series, unit and attributes', () => {
    for (const spec of METRIC_CATALOG) {
      const line = reference.split('\n').find((l) => l.startsWith(`| \`${spec.name}\` |`));
      expect(line, spec.name).toBeDefined();
      for (const series of prometheusSeries(spec)) expect(line).toContain(`\`${series}\``);
      expect(line).toContain(`${spec.kind} \`${spec.unit}\``);
      for (const attribute of spec.attributes) expect(line).toContain(`\`${attribute}\``);
      expect(line).toContain(spec.description);
    }
  });
});

describe('payloadFields', () => {
  it('reads top-level fields only, past comments, string unions and nested types', () => {
    const source = `
      export interface EventPayloads {
        // a comment with a: colon
        'footprint.a.b': {
          /** doc: with a colon */
          first: string;
          second?: 'x' | 'y: z';
          nested: { inner: number; other?: string }[];
          fn: (arg: number) => void;
          last: Record<string, { deep: boolean }>;
        };
        'footprint.a.c': { only: number };
      }
      export type After = { ignored: true };`;
    expect(Object.fromEntries(payloadFields(source))).toEqual({
      'footprint.a.b': ['first', 'second?', 'nested', 'fn', 'last'],
      'footprint.a.c': ['only'],
    });
  });
});

describe('scripts/reference.ts', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'footprint-reference-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tsx = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });

  it('--check exits 0 on the current page', () => {
    const result = tsx(['--check']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('--check exits 1 on a stale section, and a run rewrites it to the current one', () => {
    const readme = path.join(dir, 'README.md');
    copyFileSync(REFERENCE_PAGE, readme);
    const stale = spliceReference(readFileSync(readme, 'utf8'), 'an old reference');
    writeFileSync(readme, stale);
    const check = tsx(['--check', '--readme', readme]);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('out of date');
    expect(readFileSync(readme, 'utf8')).toBe(stale);

    expect(tsx(['--readme', readme]).status).toBe(0);
    const rewritten = readFileSync(readme, 'utf8');
    expect(section(rewritten)).toBe(renderReference());
    expect(rewritten.replace(section(rewritten)!, '')).toBe(stale.replace('an old reference', ''));
    expect(tsx(['--check', '--readme', readme]).status).toBe(0);
  });

  it('refuses a page without the markers', () => {
    const readme = path.join(dir, 'NO-MARKERS.md');
    writeFileSync(readme, '# no reference here\n');
    const result = tsx(['--readme', readme]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(START_MARKER);
    expect(readFileSync(readme, 'utf8')).toBe('# no reference here\n');
  });
});
