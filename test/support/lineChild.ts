/**
 * A child process spoken to in lines: the tests' fixtures that wait for the parent's word (resume
 * now, run this turn) and answer one line each. next() resolves with the child's next stdout line;
 * send() writes one line to its stdin.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface LineChild {
  readonly process: ChildProcess;
  next(): Promise<string>;
  send(line: string): void;
  /** Closes its stdin and waits for it to exit; its exit code. */
  close(): Promise<number | null>;
}

export function lineChild(file: string, args: string[]): LineChild {
  const child = spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    process: child,
    next: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : Promise.race([
            new Promise<string>((resolve) => waiting.push(resolve)),
            exited.then((code) => Promise.reject(new Error(`the child exited (${code}) before answering: ${stderr}`))),
          ]),
    send: (line) => child.stdin!.write(`${line}\n`),
    close: () => {
      child.stdin!.end();
      return exited;
    },
  };
}
