/**
 * Content is decided in one place: src/events/exportedView.ts is the only file that branches on the
 * content-capture setting. Every other file may pass the setting along, never test it (`capture &&`,
 * `capture ? … : …`, `if (capture)`, `!capture`): a writer exports what a record's exported view holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const THE_ONE_PLACE = 'events/exportedView.ts';

/** A capture setting (capture, this.capture, settings.capture, captureContent, …) used as a condition. */
const CAPTURE = String.raw`(?:[\w.]+\.)?capture\w*`;
const BRANCHES = [
  new RegExp(String.raw`\b${CAPTURE}\s*(?:&&|\|\|)`),
  new RegExp(String.raw`(?:&&|\|\|)\s*!?\s*${CAPTURE}\b`),
  new RegExp(String.raw`\b${CAPTURE}\s*\?(?![?.:])`),
  new RegExp(String.raw`\bif\s*\(\s*!?\s*${CAPTURE}\s*\)`),
  new RegExp(String.raw`!\s*${CAPTURE}\b`),
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** `file:line: code` for every line that branches on capture (comments left out). */
function branchesIn(path: string, text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .split('\n')
    .flatMap((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      return BRANCHES.some((branch) => branch.test(code)) ? [`${path}:${i + 1}: ${code.trim()}`] : [];
    });
}

describe('content capture', () => {
  it('is branched on in events/exportedView.ts only', () => {
    const found = sources(SRC)
      .map((file) => relative(SRC, file))
      .filter((path) => path !== THE_ONE_PLACE)
      .flatMap((path) => branchesIn(path, readFileSync(join(SRC, path), 'utf8')));
    expect(found).toEqual([]);
  });

  it('is branched on there (the check reads the right thing)', () => {
    expect(branchesIn(THE_ONE_PLACE, readFileSync(join(SRC, THE_ONE_PLACE), 'utf8'))).not.toEqual([]);
  });

  it('catches every form of a capture branch, and passing the setting along is none (positive control)', () => {
    const sample = [
      'if (this.capture) span.setAttribute(x, y);',
      "const m = this.capture ? text : 'withheld';",
      'if (capture && args !== undefined) a = b;',
      'return capture || own ? rest : other;',
      'if (x && settings.capture) a = b;',
      'if (!capture) return;',
      'const capture = options.captureContent ?? captureFromEnv();',
      'new EventSpans({ capture, layout });',
      'capture?: boolean;',
      '/** shown only under content capture && never else */',
    ].join('\n');
    expect(branchesIn('sample.ts', sample).map((line) => Number(line.split(':')[1]))).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
