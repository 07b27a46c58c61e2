/**
 * One writer's lines on disk: each line goes out whole in one write (looping only on a short write,
 * which no other writer can interleave with, since the file is this writer's alone; a line the disk
 * refused part way is cut back off, so no later line is glued to its fragment); files are
 * created with O_EXCL, never reopened, and rotated by size; only the newest `keepFiles` of this
 * writer's files are kept. The bound on disk per writer is therefore keepFiles × maxFileBytes (a
 * single line larger than maxFileBytes still goes whole, alone in its file). Lines are written in
 * order: each waits for the one before it, so flush() means "all handed over so far is on disk".
 * Under content capture the lines hold prompts and answers, so startTelemetry asks for files
 * readable by their owner only (ownerOnly: 0600); otherwise they get the usual mode (0666 less the umask).
 */
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { newSession, sessionFileName, type FileSignal } from './fileNames.js';

const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;
const DEFAULT_KEEP_FILES = 16;
/** A line that has waited this long for the disk means the disk is stuck (the guard's file-write deadline). */
const DEFAULT_STUCK_AFTER_MS = 30_000;

export interface LineWriterOptions {
  directory: string;
  signal: FileSignal;
  /** Rotate before a line would take the file past this size (default 64 MiB). */
  maxFileBytes?: number;
  /** How many of this writer's files to keep; older ones are deleted (default 16). */
  keepFiles?: number;
  /** Names this writer's files (default: a fresh session). */
  session?: string;
  /** New lines are refused while the oldest waiting one has waited this long (default 30 s). */
  stuckAfterMs?: number;
  /** Create the files readable by their owner only (0600), for content capture (default: 0666 less the umask). */
  ownerOnly?: boolean;
}

/** A line could not be written; the error says which file and why. */
export class LineWriteError extends Error {
  override readonly name = 'LineWriteError';
}

export class LineWriter {
  readonly session: string;
  private readonly maxFileBytes: number;
  private readonly keepFiles: number;
  private readonly written: string[] = [];
  private current?: { handle: FileHandle; bytes: number };
  private seq = 0;
  private removed = 0;
  private tail: Promise<void> = Promise.resolve();
  /** When each line still waiting for the disk was handed over, oldest first. */
  private readonly waitingSince: number[] = [];
  private readonly stuckAfterMs: number;
  private closed = false;

  constructor(private readonly options: LineWriterOptions) {
    this.session = options.session ?? newSession();
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.keepFiles = Math.max(1, options.keepFiles ?? DEFAULT_KEEP_FILES);
    this.stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
  }

  /** This writer's files still on disk, oldest first. */
  files(): string[] {
    return [...this.written];
  }

  /** How many of this writer's files rotation has deleted (their lines are gone from disk). */
  removedFiles(): number {
    return this.removed;
  }

  /** Appends one line (a newline is added); resolves once it is on disk, rejects if it could not be. */
  append(line: Uint8Array): Promise<void> {
    const now = Date.now();
    const oldest = this.waitingSince[0];
    if (oldest !== undefined && now - oldest >= this.stuckAfterMs) {
      const waited = Math.round((now - oldest) / 1000);
      return Promise.reject(
        new LineWriteError(`the disk has not taken a ${this.options.signal} line for ${waited} s (${this.waitingSince.length} waiting); refusing more until it does`),
      );
    }
    this.waitingSince.push(now);
    const write = this.tail.then(() => this.writeLine(line)).finally(() => this.waitingSince.shift());
    this.tail = write.catch(() => undefined);
    return write;
  }

  /** Resolves when every line appended so far has been written (or failed). */
  flush(): Promise<void> {
    return this.tail;
  }

  /** Writes what is pending, then closes the file; later appends fail. */
  close(): Promise<void> {
    const closing = this.tail.then(async () => {
      this.closed = true;
      await this.current?.handle.close().catch(() => undefined);
      this.current = undefined;
    });
    this.tail = closing;
    return closing;
  }

  private async writeLine(line: Uint8Array): Promise<void> {
    if (this.closed) throw new LineWriteError(`the ${this.options.signal} file writer is closed`);
    const bytes = Buffer.concat([line, NEWLINE]);
    const file = await this.fileFor(bytes.length);
    let offset = 0;
    try {
      while (offset < bytes.length) {
        const { bytesWritten } = await file.handle.write(bytes, offset, bytes.length - offset);
        offset += bytesWritten;
      }
      file.bytes += offset;
    } catch (error) {
      const name = this.written.at(-1);
      const torn = offset === 0 ? '' : ` (${await this.takeBack(file, offset)})`;
      throw new LineWriteError(`writing ${name} failed: ${(error as Error).message}${torn}`);
    }
  }

  /**
   * A line that failed part way (a disk full mid-line: a short write, then ENOSPC) left its first
   * bytes at the file's end; the next line would be glued to them, unreadable though counted written.
   * The file is cut back to where the line began (the file is opened for append, so the next line
   * goes there); if it cannot be, the fragment stays as the file's torn tail and the next line opens
   * a new file. Returns what became of the fragment, for the error.
   */
  private async takeBack(file: { handle: FileHandle; bytes: number }, torn: number): Promise<string> {
    try {
      await file.handle.truncate(file.bytes);
      return `the ${torn} bytes of the line written were taken back`;
    } catch (error) {
      await file.handle.close().catch(() => undefined);
      if (this.current === file) this.current = undefined;
      return `the ${torn} bytes of the line written stay as the file's torn tail (${(error as Error).message}); the next line opens a new file`;
    }
  }

  private async fileFor(lineBytes: number): Promise<{ handle: FileHandle; bytes: number }> {
    if (this.current && (this.current.bytes === 0 || this.current.bytes + lineBytes <= this.maxFileBytes)) return this.current;
    await this.current?.handle.close().catch(() => undefined);
    this.current = undefined;
    const file = path.join(this.options.directory, sessionFileName(this.options.signal, this.session, ++this.seq));
    let handle: FileHandle;
    try {
      await mkdir(this.options.directory, { recursive: true });
      handle = await open(file, 'ax', this.options.ownerOnly ? 0o600 : 0o666);
    } catch (error) {
      throw new LineWriteError(`cannot create ${file}: ${(error as Error).message}`);
    }
    this.current = { handle, bytes: 0 };
    this.written.push(file);
    while (this.written.length > this.keepFiles) {
      await rm(this.written.shift()!, { force: true });
      this.removed++;
    }
    return this.current;
  }
}

const NEWLINE = Buffer.from('\n');
