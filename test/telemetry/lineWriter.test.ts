/**
 * The file default's writer and reader, on their own: every writer owns its files (created with
 * O_EXCL, never reopened), so two processes writing big lines into one folder at once leave every
 * line whole, and a file a killed writer left with a torn last line is never appended to. Files rotate
 * before a line would take them past maxFileBytes and only the newest keepFiles are kept (the bound
 * on disk); any number of lines wait their turn, and only a disk stuck on a line refuses more (the bound in memory). The reader streams: it reports a torn tail and an over-long line with their line numbers
 * and never builds the whole file as one string.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { listSignalFiles, sessionFileName } from '../../src/telemetry/files/fileNames.js';
import { LineWriter } from '../../src/telemetry/files/lineWriter.js';
import { readLines, type FileLine } from '../../src/telemetry/files/lines.js';
import { compiled } from '../support/compiled.js';
import { scratchFolders } from '../support/scratch.js';

const tempDir = scratchFolders('fp-lines-');
const bytes = (text: string) => Buffer.from(text, 'utf8');

async function allLines(file: string, maxLineBytes?: number): Promise<FileLine[]> {
  const out: FileLine[] = [];
  for await (const line of readLines(file, { maxLineBytes })) out.push(line);
  return out;
}

describe('LineWriter', () => {
  it('writes each line whole into a file of its own session, in order', async () => {
    const dir = tempDir();
    const writer = new LineWriter({ directory: dir, signal: 'traces', session: '20261130T101500000Z-1-abcd' });
    await Promise.all(['one', 'two', 'three'].map((line) => writer.append(bytes(line))));
    await writer.close();
    expect(readdirSync(dir)).toEqual(['traces-20261130T101500000Z-1-abcd-0001.jsonl']);
    expect(readFileSync(writer.files()[0]!, 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('never appends to a file that exists: a torn file left by a killed writer stays as it was', async () => {
    const dir = tempDir();
    const session = '20261130T101500000Z-1-abcd';
    const torn = path.join(dir, sessionFileName('traces', session, 1));
    writeFileSync(torn, '{"resourceSpans":[{"cut');
    const writer = new LineWriter({ directory: dir, signal: 'traces', session });
    await expect(writer.append(bytes('{}'))).rejects.toThrow(`cannot create ${torn}: EEXIST`);
    expect(readFileSync(torn, 'utf8')).toBe('{"resourceSpans":[{"cut');
    // a fresh session (what every startTelemetry gets) writes beside it
    const fresh = new LineWriter({ directory: dir, signal: 'traces' });
    await fresh.append(bytes('{}'));
    await fresh.close();
    expect(readFileSync(fresh.files()[0]!, 'utf8')).toBe('{}\n');
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('rotates before a line would pass maxFileBytes and keeps only the newest keepFiles', async () => {
    const dir = tempDir();
    const writer = new LineWriter({ directory: dir, signal: 'metrics', maxFileBytes: 10, keepFiles: 2, session: '20261130T101500000Z-1-abcd' });
    for (const line of ['aaaa', 'bbbb', 'cccc', 'dddddddddddddddd', 'ee']) await writer.append(bytes(line));
    await writer.close();
    // aaaa+bbbb fit in 10 bytes; cccc opens file 2; the 17-byte line goes whole into file 3, alone; ee opens file 4
    expect(readdirSync(dir).sort()).toEqual([sessionFileName('metrics', '20261130T101500000Z-1-abcd', 3), sessionFileName('metrics', '20261130T101500000Z-1-abcd', 4)]);
    expect(writer.files().map((f) => readFileSync(f, 'utf8'))).toEqual(['dddddddddddddddd\n', 'ee\n']);
    expect(writer.removedFiles()).toBe(2);
  });

  it('takes every line handed over at once, in order, however many', async () => {
    const writer = new LineWriter({ directory: tempDir(), signal: 'traces' });
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`);
    await Promise.all(lines.map((line) => writer.append(bytes(line))));
    await writer.close();
    expect(readFileSync(writer.files()[0]!, 'utf8').split('\n')).toEqual([...lines, '']);
  });

  it('refuses new lines while the oldest waiting one has waited stuckAfterMs, and takes lines again once the disk answers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const writer = new LineWriter({ directory: tempDir(), signal: 'traces', stuckAfterMs: 30_000 });
      const first = writer.append(bytes('first'));
      vi.setSystemTime(Date.now() + 31_000);
      await expect(writer.append(bytes('refused'))).rejects.toThrow('the disk has not taken a traces line for 31 s (1 waiting); refusing more until it does');
      await first;
      await writer.append(bytes('after'));
      await writer.close();
      expect(readFileSync(writer.files()[0]!, 'utf8').split('\n')).toEqual(['first', 'after', '']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses lines after close', async () => {
    const writer = new LineWriter({ directory: tempDir(), signal: 'traces' });
    await writer.close();
    await expect(writer.append(bytes('late'))).rejects.toThrow('the traces file writer is closed');
  });
});

describe('two processes writing into one folder at once', () => {
  it('leave every line whole: 2 × 40 lines of 600 KiB, each parses', async () => {
    const dir = tempDir();
    const child = () =>
      new Promise<number | null>((resolve, reject) => {
        const proc = spawn(process.execPath, [compiled(path.join(import.meta.dirname, 'fixtures', 'writeLines.ts')), dir, '40', String(600 * 1024)], {
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        proc.on('error', reject);
        proc.on('exit', resolve);
      });
    expect(await Promise.all([child(), child()])).toEqual([0, 0]);
    const files = await listSignalFiles(dir, 'traces');
    expect(files).toHaveLength(2);
    let whole = 0;
    for (const file of files) {
      for (const line of await allLines(file)) {
        expect(line.kind).toBe('line');
        if (line.kind === 'line') expect(JSON.parse(line.text)).toMatchObject({ pid: expect.any(Number), n: expect.any(Number) });
        whole++;
      }
    }
    expect(whole).toBe(80);
  }, 60_000);
});

describe('readLines', () => {
  it('yields lines with their numbers, and a torn tail as torn', async () => {
    const file = path.join(tempDir(), 'lines.jsonl');
    writeFileSync(file, 'first\n\nthird\nfourth-cut');
    expect(await allLines(file)).toEqual([
      { kind: 'line', number: 1, text: 'first' },
      { kind: 'line', number: 2, text: '' },
      { kind: 'line', number: 3, text: 'third' },
      { kind: 'torn', number: 4, bytes: 10 },
    ]);
  });

  it('skips a line longer than maxLineBytes, reading on after it', async () => {
    const file = path.join(tempDir(), 'long.jsonl');
    writeFileSync(file, `short\n${'x'.repeat(3 * 1024 * 1024)}\nafter\n`);
    expect(await allLines(file, 1024 * 1024)).toEqual([
      { kind: 'line', number: 1, text: 'short' },
      { kind: 'too_long', number: 2, bytes: 3 * 1024 * 1024 },
      { kind: 'line', number: 3, text: 'after' },
    ]);
  });

  it('reads lines that span many chunks, with multi-byte characters cut between chunks', async () => {
    const file = path.join(tempDir(), 'wide.jsonl');
    const wide = 'é'.repeat(1_500_000);
    writeFileSync(file, `${wide}\nend\n`);
    const lines = await allLines(file);
    expect(lines.map((l) => (l.kind === 'line' ? l.text.length : -1))).toEqual([1_500_000, 3]);
    expect(lines[0]).toEqual({ kind: 'line', number: 1, text: wide });
  });
});
