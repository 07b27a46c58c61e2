/**
 * Bad command lines — an unknown flag or command, a count that is not a positive whole number, view
 * or why without a path or on a missing one, a view or why flag given to the demo, why's flags that
 * contradict each other — end with a one-line reason
 * and the usage on stderr, nothing on stdout, exit code 2, and no telemetry started. --help prints
 * the usage on stdout with exit code 0.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USAGE } from '../../src/cli/args.js';
import { DESTINATION_VARIABLES } from '../../src/telemetry/config.js';
import { cli, tempDir } from '../support/cli.js';

const temp = tempDir('usage');
afterAll(() => temp.remove());

const BAD: [string[], string][] = [
  [['--bogus'], "Unknown option '--bogus'"],
  [['--runs', 'abc'], '--runs must be a whole number from 1 to 1000000 (got "abc")'],
  [['--runs', '0'], '--runs must be a whole number from 1 to 1000000 (got 0)'],
  [['--runs=-3'], '--runs must be a whole number from 1 to 1000000 (got -3)'],
  [['--runs', '-5'], '--runs must be a whole number from 1 to 1000000 (got -5)'],
  [['--runs', '1e9'], '--runs must be a whole number from 1 to 1000000 (got 1000000000)'],
  [['--concurrency', '2.5'], '--concurrency must be a whole number from 1 to 1000 (got 2.5)'],
  [['--concurrency', '-.5'], '--concurrency must be a whole number from 1 to 1000 (got -0.5)'],
  [['--seed', '-1'], '--seed must be a whole number from 0 to 2147483647 (got -1)'],
  [['--runs', ''], '--runs must be a whole number from 1 to 1000000 (got "")'],
  [['view', 'a', 'b'], 'view takes one file or directory (./telemetry when none is named)'],
  [['view'], 'no such file or directory: telemetry'],
  [['view', 'no/such/dir'], 'no such file or directory: no/such/dir'],
  [['view', '.', '--runs', '3'], '--runs is a demo flag, not a view flag'],
  [['view', '.', '--stream'], '--stream is a demo flag, not a view flag'],
  [['view', '.', '--runaway'], '--runaway is a demo flag, not a view flag'],
  [['--trace', 'abc'], '--trace is a view flag, not a demo flag'],
  [['demo', '--list'], '--list is a view flag, not a demo flag'],
  [['--ticket', 'hello', '--runs', '2'], '--ticket runs one ticket; drop --runs'],
  [['--ticket', '  '], '--ticket needs some text'],
  [['frobnicate'], 'unknown command "frobnicate"'],
  [['why', 'a', 'b'], 'why takes one file or directory (./telemetry when none is named)'],
  [['why'], 'no such file or directory: telemetry'],
  [['why', '--trace', 'abc', '--run', 'run_1'], '--trace and --run both name the run; give one'],
  [['why', '--run', ' '], '--run needs a run id (footprint.run.id)'],
  [['why', '.', '--jaeger', 'http://127.0.0.1:1'], 'why reads files or --jaeger, not both'],
  [['why', '--jaeger', 'nope', '--run', 'run_1'], '--jaeger needs a URL such as http://127.0.0.1:16686, not "nope"'],
  [['why', '--jaeger', 'http://127.0.0.1:1'], 'with --jaeger, name the run: --trace ID or --run RUN_ID'],
  [['why', '--jaeger', 'http://127.0.0.1:1', '--trace', 'abc'], 'with --jaeger, --trace takes a whole trace id (32 hex digits)'],
  [['why', '--runs', '3'], '--runs is not a why flag'],
  [['view', '.', '--json'], '--json is a why flag, not a view flag'],
  [['--run', 'run_1'], '--run is a why flag, not a demo flag'],
];

describe.concurrent('a bad command line', () => {
  it.each(BAD)('%j: says why, shows the usage, exits 2', async (args, reason) => {
    const result = await cli(args, { cwd: temp.dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [first, ...rest] = result.stderr.trimEnd().split('\n');
    expect(first).toContain(`footprint-otel: ${reason}`);
    expect(rest.join('\n')).toContain(USAGE);
    expect(existsSync(path.join(temp.dir, 'telemetry'))).toBe(false);
  });
});

describe('the usage', () => {
  it('names every variable that switches telemetry from files to OTLP', () => {
    expect(DESTINATION_VARIABLES.filter((variable) => !USAGE.includes(variable))).toEqual([]);
  });
});

describe('--help', () => {
  it('prints the usage on stdout and exits 0', async () => {
    const result = await cli(['--help'], { cwd: temp.dir });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd()).toBe(USAGE);
    expect(result.stderr).toBe('');
    expect(USAGE).toContain('[--ticket "text"] [--stream] [--mcp] [--runaway] [--no-color]');
  });
});
