/**
 * The layer arrows of docs/architecture.md, enforced: every relative import in src/ points down the
 * stack (events <- runtime <- recorders <- otel <- mcp <- postgres <- telemetry <- cli; the package
 * entry src/index.ts sits between telemetry and cli), and enters another layer only through that
 * layer's index.ts. mcp/ is its own package entry (footprint-otel/mcp) on optional peers: the main
 * entry and every layer below it never import it, and only mcp/ (and the demo in cli/) import the MCP
 * SDK. postgres/ is the same for footprint-otel/postgres and the pg client: only postgres/ imports pg,
 * and no other layer imports postgres/.
 * Inside otel/ and runtime/ the same holds for their folders: each imports only the folders its row
 * of OTEL_FOLDERS or RUNTIME_FOLDERS names (the arrows its index.ts states), and only through their
 * index.ts; runtime/ has no loose file at its root, and docs/architecture.md draws RUNTIME_FOLDERS as
 * it is. A file that breaks an arrow is named with the import that breaks it. Telemetry (otel/) holds
 * no runtime class, not even as a type: it reads the run tree and the run's events a RunStart hands
 * it, and RunStart's own declaration names no runtime class.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

const LAYERS = ['events', 'runtime', 'recorders', 'otel', 'mcp', 'postgres', 'telemetry', '(entry)', 'cli'] as const;
/** What each otel folder may import (besides itself). */
const OTEL_FOLDERS: Record<string, readonly string[]> = {
  encoding: [],
  placement: ['encoding'],
  genai: ['encoding', 'placement'],
  wiring: ['encoding', 'placement', 'genai'],
  metrics: ['encoding'],
  '(index)': ['encoding', 'placement', 'genai', 'wiring', 'metrics'],
};
/** What each runtime folder may import (besides itself): the DAG drawn in docs/architecture.md. */
const RUNTIME_FOLDERS: Record<string, readonly string[]> = {
  run: [],
  cost: [],
  providers: ['run'],
  tools: ['run'],
  skills: ['providers', 'run', 'tools'],
  agent: ['cost', 'providers', 'run', 'skills', 'tools'],
  compositions: ['run'],
  routing: ['agent', 'compositions', 'cost', 'providers', 'run'],
  '(index)': ['run', 'cost', 'providers', 'tools', 'skills', 'agent', 'compositions', 'routing'],
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

/** The folder of a path under src/<layer>/, or '(index)' for src/<layer>/index.ts. */
function folderOf(layer: string, path: string): string {
  const rest = path.slice(`${layer}/`.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '(index)';
}

const rank = (path: string) => LAYERS.indexOf(layerOf(path) as (typeof LAYERS)[number]);

/** Imports that point up the stack. */
const upward = (imports: Import[]) => imports.filter((i) => rank(i.to) > rank(i.from));

/** Imports into another layer that do not go through its index.ts. */
const pastIndex = (imports: Import[]) =>
  imports.filter((i) => layerOf(i.to) !== layerOf(i.from) && i.to !== `${layerOf(i.to)}/index.ts` && i.to !== 'index.ts');

/** Imports between a layer's folders against their arrows (the layer's table), or past a folder's index.ts. */
const folderBroken = (layer: string, arrows: Record<string, readonly string[]>) => (imports: Import[]) =>
  imports.filter((i) => {
    if (!i.from.startsWith(`${layer}/`) || !i.to.startsWith(`${layer}/`)) return false;
    const from = folderOf(layer, i.from);
    const to = folderOf(layer, i.to);
    if (from === to) return false;
    return !(arrows[from] ?? []).includes(to) || i.to !== `${layer}/${to}/index.ts`;
  });
const otelBroken = folderBroken('otel', OTEL_FOLDERS);
const runtimeBroken = folderBroken('runtime', RUNTIME_FOLDERS);

/** The folders of a layer that hold a file importing something. */
const foldersFound = (layer: string) => new Set(ALL.filter((i) => i.from.startsWith(`${layer}/`)).map((i) => folderOf(layer, i.from)));

const ALL = sources(SRC).flatMap(importsOf);

/** The names exported by src/runtime/index.ts that are classes (loaded, so a renamed or new class counts). */
const RUNTIME_CLASSES: ReadonlySet<string> = new Set(
  Object.entries(await import('../../src/runtime/index.js'))
    .filter(([, value]) => typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value)))
    .map(([name]) => name),
);

/** `file: Name` for every runtime class a source imports from runtime/index.ts, as a value or as a type. */
function runtimeClassesIn(path: string, text: string): string[] {
  const found: string[] = [];
  for (const [, list] of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(?:\.\.\/)+runtime\/index\.js'/g)) {
    for (const item of list!.split(',').map((part) => part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!)) {
      if (RUNTIME_CLASSES.has(item)) found.push(`${path}: ${item}`);
    }
  }
  return found;
}

/** The runtime classes an interface's declaration names. */
function classesDeclaredIn(text: string, name: string): string[] {
  const declaration = text.slice(text.indexOf(`export interface ${name} {`));
  const body = declaration.slice(0, declaration.indexOf('\n}') + 2);
  return [...body.matchAll(/\b[A-Z]\w*\b/g)].map((m) => m[0]).filter((word) => RUNTIME_CLASSES.has(word));
}
const show = (imports: Import[]) => imports.map((i) => `${i.from} -> ${i.to}`);

describe('the layer arrows', () => {
  it('found imports in every layer, every otel folder and every runtime folder', () => {
    expect(new Set(ALL.map((i) => layerOf(i.from)))).toEqual(new Set(LAYERS));
    expect(foldersFound('otel')).toEqual(new Set(Object.keys(OTEL_FOLDERS)));
    expect(foldersFound('runtime')).toEqual(new Set(Object.keys(RUNTIME_FOLDERS)));
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

  it('runtime folders import each other down their own arrows, through each index', () => {
    expect(show(runtimeBroken(ALL))).toEqual([]);
  });

  it('runtime/ holds no loose file but its index.ts', () => {
    const loose = readdirSync(join(SRC, 'runtime'), { withFileTypes: true }).filter((entry) => !entry.isDirectory());
    expect(loose.map((entry) => entry.name)).toEqual(['index.ts']);
  });

  it("docs/architecture.md draws runtime's arrows as RUNTIME_FOLDERS holds them", () => {
    const doc = readFileSync(resolve(SRC, '../docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Inside runtime/'));
    const drawn = section.split('```')[3]!.trim().split('\n');
    const arrows = Object.fromEntries(
      drawn.map((line) => {
        const [folder, targets] = line.split(/\s+->\s+|\s+\(no other runtime folder\)/);
        return [folder!.trim(), targets ? targets.split(', ') : []];
      }),
    );
    const { '(index)': _index, ...folders } = RUNTIME_FOLDERS;
    expect(arrows).toEqual(folders);
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

  it('no other layer imports postgres/, and only postgres/ imports the pg client', () => {
    const intoPostgres = ALL.filter((i) => layerOf(i.to) === 'postgres' && layerOf(i.from) !== 'postgres');
    expect(show(intoPostgres)).toEqual([]);
    const pgUsers = sources(SRC)
      .filter((file) => /from 'pg'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(pgUsers).toEqual(['postgres/connection.ts']);
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

  it('catches a runtime folder importing against its arrows or past an index (positive control)', () => {
    const bad: Import[] = [
      { from: 'runtime/skills/cursor.ts', to: 'runtime/agent/index.ts' },
      { from: 'runtime/run/errorTypes.ts', to: 'runtime/providers/index.ts' },
      { from: 'runtime/agent/agent.ts', to: 'runtime/skills/brains.ts' },
      { from: 'runtime/agent/stages/callLLM.ts', to: 'runtime/providers/retry.ts' },
      { from: 'runtime/agent/agent.ts', to: 'runtime/skills/index.ts' },
      { from: 'runtime/agent/stages/callLLM.ts', to: 'runtime/agent/state.ts' },
      { from: 'runtime/index.ts', to: 'runtime/routing/index.ts' },
    ];
    expect(show(runtimeBroken(bad))).toEqual([
      'runtime/skills/cursor.ts -> runtime/agent/index.ts',
      'runtime/run/errorTypes.ts -> runtime/providers/index.ts',
      'runtime/agent/agent.ts -> runtime/skills/brains.ts',
      'runtime/agent/stages/callLLM.ts -> runtime/providers/retry.ts',
    ]);
  });

  it('otel/ imports no runtime class (it reads the run tree and the events RunStart hands it)', () => {
    const otelFiles = sources(join(SRC, 'otel')).map((file) => relative(SRC, file));
    expect(otelFiles.flatMap((path) => runtimeClassesIn(path, readFileSync(join(SRC, path), 'utf8')))).toEqual([]);
    expect(classesDeclaredIn(readFileSync(join(SRC, 'runtime/run/instruments.ts'), 'utf8'), 'RunStart')).toEqual([]);
  });

  it('catches an otel file importing a runtime class, as a value or a type, and RunStart naming one (positive control)', () => {
    expect([...RUNTIME_CLASSES].filter((name) => ['Agent', 'Runner', 'EventHub', 'LLMCall', 'ConfigError'].includes(name)).sort()).toEqual(['Agent', 'ConfigError', 'EventHub', 'LLMCall', 'Runner']);
    const probe = [
      "import { Agent, type RunStart } from '../../runtime/index.js';",
      "import type { Runner, RunTree } from '../../runtime/index.js';",
      "import { outcomeLabel, type RunOutcome } from '../../runtime/index.js';",
    ].join('\n');
    expect(runtimeClassesIn('otel/probe.ts', probe)).toEqual(['otel/probe.ts: Agent', 'otel/probe.ts: Runner']);
    expect(classesDeclaredIn('export interface RunStart {\n  runner: Runner;\n  hub: EventHub;\n  tree: RunTree;\n}', 'RunStart')).toEqual(['Runner', 'EventHub']);
  });
});
