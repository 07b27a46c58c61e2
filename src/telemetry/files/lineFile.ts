/**
 * An append-only file of lines, written in order: each append waits for the one before it, so
 * batches never interleave and flush() means "everything handed over so far is on disk". The folder
 * is created on the first write, so an app that never exports leaves no trace on disk. Under content
 * capture the lines hold prompts and answers, so a file created then is readable by its owner only.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { captureFromEnv } from '../../events/index.js';

export class LineFile {
  private tail: Promise<void> = Promise.resolve();
  private folderReady?: Promise<unknown>;

  constructor(readonly file: string) {}

  /** Appends one line (a newline is added); resolves once it is written, rejects if it could not be. */
  append(line: string): Promise<void> {
    const write = this.tail.then(async () => {
      this.folderReady ??= mkdir(path.dirname(this.file), { recursive: true });
      await this.folderReady;
      await appendFile(this.file, `${line}\n`, { encoding: 'utf8', mode: captureFromEnv() ? 0o600 : 0o666 });
    });
    this.tail = write.catch(() => undefined);
    return write;
  }

  /** Resolves when every line appended so far has been written (or failed). */
  flush(): Promise<void> {
    return this.tail;
  }
}
