/**
 * Streams a telemetry file line by line without ever holding the whole file: chunks are split on
 * newlines as they arrive and only the line being assembled is kept. A last line without its newline
 * is a torn tail (a writer was killed mid-write): it is reported as such, never parsed. A line longer
 * than maxLineBytes is reported as too long and skipped, so one hostile line cannot exhaust memory.
 */
import { createReadStream } from 'node:fs';

const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

export type FileLine =
  | { kind: 'line'; number: number; text: string }
  | { kind: 'torn'; number: number; bytes: number }
  | { kind: 'too_long'; number: number; bytes: number };

export async function* readLines(file: string, options: { maxLineBytes?: number } = {}): AsyncGenerator<FileLine> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let number = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let newline = chunk.indexOf(10, from); newline !== -1; newline = chunk.indexOf(10, from)) {
      number++;
      const bytes = partBytes + newline - from;
      if (tooLong || bytes > maxLineBytes) yield { kind: 'too_long', number, bytes };
      else yield { kind: 'line', number, text: Buffer.concat([...parts, chunk.subarray(from, newline)]).toString('utf8') };
      parts = [];
      partBytes = 0;
      tooLong = false;
      from = newline + 1;
    }
    if (from < chunk.length) {
      partBytes += chunk.length - from;
      if (partBytes > maxLineBytes) {
        tooLong = true;
        parts = [];
      } else {
        parts.push(chunk.subarray(from));
      }
    }
  }
  if (partBytes > 0) yield { kind: 'torn', number: number + 1, bytes: partBytes };
}
