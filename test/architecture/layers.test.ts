/**
 * The layer arrows of docs/architecture.md, enforced: every relative import in src/ points down the
 * stack (events <- runtime <- recorders <- otel <- mcp <- telemetry <- cli; the package entry
 * src/index.ts sits between telemetry and cli), and enters another layer only through that layer's
 * index.ts. mcp/ is its own package entry (footprint-otel/mcp) on optional peers: the main entry and
 * every layer below it never import it, and only mcp/ (and the demo in cli/) import the MCP SDK.
 * Inside otel/ the same holds for its folders (encoding <- placement <- genai <- wiring; metrics
 * <- encoding). A file that breaks an arrow is named with the import that breaks it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

const LAYERS = ['events', 'runtime', 'recorders', 'otel', 'mcp', 'telemetry', '(entry)', 'cli'] as const;
/** What each otel folder may import (besides itself). */
const OTEL_FOLDERS: Record<string, readonly string[]> = {
  encoding: [],
  placement: ['encoding'],
  genai: ['encoding', 'placement'],
  wiring: ['encoding', 'placement', 'genai'],
  metrics: ['encoding'],
  '(index)': ['encoding', 'placement', 'genai', 'wiring', 'metrics'],
};

interface Import {
  from: string;
  to: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => ({ from: relative(SRC, file), to: relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts') }));
}

/** The layer of a path under src/: its top folder, or '(entry)' for src/index.ts. */
function layerOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.indexOf('/')) : '(entry)';
}

/** The otel folder of a path under src/otel/, or '(index)' for src/otel/index.ts. */
function otelFolderOf(path: string): string {
  const rest = path.slice('otel/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '(index)';
}

const rank = (path: string) => LAYERS.indexOf(layerOf(path) as (typeof LAYERS)[number]);

/** Imports that point up the stack. */
const upward = (imports: Import[]) => imports.filter((i) => rank(i.to) > rank(i.from));

/** Imports into another layer that do not go through its index.ts. */
const pastIndex = (imports: Import[]) =>
  imports.filter((i) => layerOf(i.to) !== layerOf(i.from) && i.to !== `${layerOf(i.to)}/index.ts` && i.to !== 'index.ts');

/** Imports between otel folders against their arrows, or past a folder's index.ts. */
const otelBroken = (imports: Import[]) =>
  imports.filter((i) => {
    if (!i.from.startsWith('otel/') || !i.to.startsWith('otel/')) return false;
    const from = otelFolderOf(i.from);
    const to = otelFolderOf(i.to);
    if (from === to) return false;
    return !OTEL_FOLDERS[from]!.includes(to) || i.to !== `otel/${to}/index.ts`;
  });

const ALL = sources(SRC).flatMap(importsOf);
const show = (imports: Import[]) => imports.map((i) => `${i.from} -> ${i.to}`);

describe('the layer arrows', () => {
  it('found imports in every layer and every otel folder', () => {
    expect(new Set(ALL.map((i) => layerOf(i.from)))).toEqual(new Set(LAYERS));
    const otelFolders = ALL.filter((i) => i.from.startsWith('otel/')).map((i) => otelFolderOf(i.from));
    expect(new Set(otelFolders)).toEqual(new Set(Object.keys(OTEL_FOLDERS)));
  });

  it('every import points down the stack, never up', () => {
    expect(show(upward(ALL))).toEqual([]);
  });

  it('another layer is entered only through its index.ts', () => {
    expect(show(pastIndex(ALL))).toEqual([]);
  });

  it('otel folders import each other down their own arrows, through each index', () => {
    expect(show(otelBroken(ALL))).toEqual([]);
  });

  it('the main entry and telemetry/ never import mcp/, and only mcp/ and cli/ import the MCP SDK', () => {
    const intoMcp = ALL.filter((i) => layerOf(i.to) === 'mcp' && !['mcp', 'cli'].includes(layerOf(i.from)));
    expect(show(intoMcp)).toEqual([]);
    const sdkUsers = sources(SRC)
      .filter((file) => /from '@modelcontextprotocol\//.test(readFileSync(file, 'utf8')))
      .map((file) => layerOf(relative(SRC, file)));
    expect([...new Set(sdkUsers)].filter((layer) => layer !== 'mcp' && layer !== 'cli')).toEqual([]);
    expect(sdkUsers).toContain('mcp');
  });

  it('catches each kind of broken arrow (positive control)', () => {
    const bad: Import[] = [
      { from: 'runtime/run/hub.ts', to: 'otel/index.ts' },
      { from: 'telemetry/health.ts', to: 'otel/metrics/catalog.ts' },
      { from: 'otel/placement/runnerLayout.ts', to: 'otel/genai/index.ts' },
      { from: 'otel/genai/eventSpans.ts', to: 'otel/placement/layout.ts' },
    ];
    expect(show(upward(bad))).toEqual(['runtime/run/hub.ts -> otel/index.ts']);
    expect(show(pastIndex(bad))).toEqual(['telemetry/health.ts -> otel/metrics/catalog.ts']);
    expect(show(otelBroken(bad))).toEqual([
      'otel/placement/runnerLayout.ts -> otel/genai/index.ts',
      'otel/genai/eventSpans.ts -> otel/placement/layout.ts',
    ]);
  });
});
