/**
 * Every TypeScript example of the README and of docs/api.md typechecks, strict, against the installed
 * tarball's type declarations: once with moduleResolution nodenext and once with bundler. An example
 * that does not compile fails here with the compiler's message, naming the file (readme-NN.ts or
 * api-NN.ts, the NN-th block of that page).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consumerProject, type Consumer } from './support/consumer.js';
import { ROOT } from './support/pack.js';
import { APP_DECLARATIONS, DOCUMENTED_PAGES, exampleFiles, readmeTypeScriptBlocks } from './support/readme.js';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const pages = Object.keys(DOCUMENTED_PAGES).map((page) => ({ page, blocks: readmeTypeScriptBlocks(page) }));

let consumer: Consumer;
beforeAll(async () => {
  consumer = await consumerProject({ name: 'typescript', tarball: inject('tarball'), packages: ['@types/node@^20', 'zod@4.6.7', 'valibot@1.5.0', '@valibot/to-json-schema@1.8.0'] });
  consumer.write('app.d.ts', APP_DECLARATIONS);
  for (const { page, blocks } of pages) for (const [file, text] of Object.entries(exampleFiles(page, blocks))) consumer.write(file, text);
});
afterAll(() => consumer?.remove());

const COMMON = { strict: true, target: 'ES2022', noEmit: true, skipLibCheck: false, types: ['node'], lib: ['ES2023'] };

async function typecheck(name: string, compilerOptions: Record<string, unknown>): Promise<string> {
  consumer.write(`tsconfig.${name}.json`, JSON.stringify({ compilerOptions: { ...COMMON, ...compilerOptions }, include: ['*.ts'] }, null, 2));
  try {
    await promisify(execFile)(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], { cwd: consumer.dir });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('the documentation\'s TypeScript examples', () => {
  it('are there to check', () => {
    expect(Object.fromEntries(pages.map(({ page, blocks }) => [page, blocks.length]))).toEqual(DOCUMENTED_PAGES);
  });

  it('compile with moduleResolution nodenext', async () => {
    expect(await typecheck('nodenext', { module: 'NodeNext', moduleResolution: 'NodeNext' })).toBe('');
  });

  it('compile with moduleResolution bundler', async () => {
    expect(await typecheck('bundler', { module: 'Preserve', moduleResolution: 'Bundler' })).toBe('');
  });
});
