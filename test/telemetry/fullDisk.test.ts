/**
 * A disk that fills in the middle of a line. The disk is simulated at the fs layer, under the writer:
 * `open` of node:fs/promises hands out the real file handle with a byte budget in front of its write,
 * so a line that does not fit goes out as the kernel does it on a full disk (a short write of what
 * fits, then ENOSPC), onto the real file; truncate is the real one and gives the bytes back. What the
 * writer counted as written (append resolved) must read back whole, what it refused must be absent,
 * and no line is glued to a torn fragment once the disk has room again.
 */
import { readFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { LineWriter } from '../../src/telemetry/files/lineWriter.js';
import { readLines, type FileLine } from '../../src/telemetry/files/lines.js';
import { scratchFolders } from '../support/scratch.js';

const disk = { free: Infinity, truncateFails: false };

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (...args: Parameters<typeof fs.open>): Promise<FileHandle> => {
    const handle = await fs.open(...args);
    const write = handle.write.bind(handle) as (buffer: Uint8Array, offset: number, length: number) => Promise<{ bytesWritten: number; buffer: Uint8Array }>;
    const truncate = handle.truncate.bind(handle);
    return Object.assign(handle, {
      write: async (buffer: Uint8Array, offset: number, length: number) => {
        if (disk.free <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        const fits = Math.min(length, disk.free);
        const done = await write(buffer, offset, fits);
        disk.free -= done.bytesWritten;
        return done;
      },
      truncate: async (length?: number) => {
        if (disk.truncateFails) throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
        const before = (await handle.stat()).size;
        await truncate(length);
        disk.free += before - (length ?? 0);
      },
    });
  };
  return { ...fs, open, default: { ...fs, open } };
});

const tempDir = scratchFolders('fp-fulldisk-');
const bytes = (text: string) => Buffer.from(text, 'utf8');

async function linesOf(files: string[]): Promise<FileLine[]> {
  const out: FileLine[] = [];
  for (const file of files) for await (const line of readLines(file)) out.push(line);
  return out;
}

/** Appends each line in turn; returns which were counted written and which refused. */
async function appendAll(writer: LineWriter, lines: Array<string | (() => void)>): Promise<{ written: string[]; refused: string[] }> {
  const written: string[] = [];
  const refused: string[] = [];
  for (const line of lines) {
    if (typeof line === 'function') line();
    else await writer.append(bytes(line)).then(() => written.push(line), () => refused.push(line));
  }
  return { written, refused };
}

describe('a disk that fills mid-line', () => {
  it('takes the torn fragment back, so the next line once the disk has room is whole, and everything counted written reads back', async () => {
    Object.assign(disk, { free: 25, truncateFails: false });
    const writer = new LineWriter({ directory: tempDir(), signal: 'traces' });
    const result = await appendAll(writer, [
      'aaaaaaaaaa', // 11 bytes: fits, 14 left
      'bbbbbbbbbbbbbbbbbbbb', // 21 bytes: 14 go out, then ENOSPC
      'dddddddddddddddddddd', // taken back, 14 bytes are free again: still too few
      () => (disk.free += 100), // another process frees space
      'cccc',
    ]);
    await writer.close();
    expect(result).toEqual({ written: ['aaaaaaaaaa', 'cccc'], refused: ['bbbbbbbbbbbbbbbbbbbb', 'dddddddddddddddddddd'] });
    expect(writer.files()).toHaveLength(1);
    expect(readFileSync(writer.files()[0]!, 'utf8')).toBe('aaaaaaaaaa\ncccc\n');
    expect(await linesOf(writer.files())).toEqual([
      { kind: 'line', number: 1, text: 'aaaaaaaaaa' },
      { kind: 'line', number: 2, text: 'cccc' },
    ]);
  });

  it('when the fragment cannot be taken back, leaves it as that file\'s torn tail and writes on in a new file', async () => {
    Object.assign(disk, { free: 25, truncateFails: true });
    const writer = new LineWriter({ directory: tempDir(), signal: 'traces' });
    const result = await appendAll(writer, ['aaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbb', () => (disk.free += 100), 'cccc']);
    await writer.close();
    expect(result).toEqual({ written: ['aaaaaaaaaa', 'cccc'], refused: ['bbbbbbbbbbbbbbbbbbbb'] });
    expect(writer.files()).toHaveLength(2);
    expect(await linesOf(writer.files())).toEqual([
      { kind: 'line', number: 1, text: 'aaaaaaaaaa' },
      { kind: 'torn', number: 2, bytes: 14 },
      { kind: 'line', number: 1, text: 'cccc' },
    ]);
  });

  it('says in the refusal which file and that the torn part was taken back', async () => {
    Object.assign(disk, { free: 5, truncateFails: false });
    const writer = new LineWriter({ directory: tempDir(), signal: 'metrics' });
    const refusal = writer.append(bytes('0123456789'));
    await expect(refusal).rejects.toThrow(/^writing .*metrics-.*-0001\.jsonl failed: ENOSPC: no space left on device, write \(the 5 bytes of the line written were taken back\)$/);
    await writer.close();
  });
});
