/**
 * A tool's `ctx` (agent/toolRunner.ts CallContext): what the tool reads through it, and its shape as
 * V8 sees it. An object literal with a getter made every ctx a dictionary-mode object, and what its
 * getter reached (the call, its run) then outlived young-generation collections: 16.8% of what a
 * reference turn allocates was promoted, against 2.9% with one class for every ctx
 * (docs/benchmarks.md, round 5, fifth session). V8 answers the shape questions only under
 * --allow-natives-syntax, so they are asked in a child process (test/fixtures/toolContextInChild.ts).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe("a tool's ctx", () => {
  it('names the call and its agent, gives one lazily made signal per call, and is one fast-properties class for every call', async () => {
    const child = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', 'test/fixtures/toolContextInChild.ts'], { cwd: process.cwd() });
    expect(JSON.parse(child.stdout)).toEqual({
      calls: [
        ['call-1', 'shape-agent'],
        ['call-2', 'shape-agent'],
      ],
      fastProperties: [true, true],
      sameHiddenClass: true,
      // an AbortSignal, not aborted, the same one each time it is read, each call its own
      signal: [true, false, true, false],
      pause: 'function',
    });
  });
});
