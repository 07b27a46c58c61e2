/**
 * A consumer project: a fresh folder under the system's temp directory with an ESM package.json, the
 * packed tarball and the given packages installed by npm from the machine's configured registry
 * (cache first), and a way to run commands (or a node script that prints one JSON value) in it with an
 * environment free of OTEL_* settings.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Consumer {
  dir: string;
  /** Runs a command in the project (node_modules/.bin first on PATH, as npm scripts have it). */
  run(command: string, args: string[], env?: Record<string, string>): Promise<Result>;
  write(file: string, text: string): string;
  /** Writes `script` to `file`, runs it with this node, expects a clean exit (code 0, nothing on stderr) and returns the JSON it printed. */
  runScript(file: string, script: string): Promise<unknown>;
  has(packageName: string): boolean;
  remove(): void;
}

export interface ConsumerOptions {
  name: string;
  tarball: string;
  /** More packages to install beside the tarball, as npm specs (e.g. @opentelemetry/api@1.9.0). */
  packages?: string[];
}

export async function consumerProject(options: ConsumerOptions): Promise<Consumer> {
  const dir = mkdtempSync(path.join(tmpdir(), `footprint-consumer-${options.name}-`));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `consumer-${options.name}`, version: '1.0.0', private: true, type: 'module' }, null, 2));
  await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', options.tarball, ...(options.packages ?? [])], {
    cwd: dir,
    env: cleanEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  const consumer: Consumer = {
    dir,
    run: (command, args, env = {}) => run(command, args, { cwd: dir, env: { ...cleanEnv(), PATH: `${path.join(dir, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`, ...env } }),
    write: (file, text) => {
      const target = path.join(dir, file);
      writeFileSync(target, text);
      return target;
    },
    runScript: async (file, script) => {
      consumer.write(file, script);
      const result = await consumer.run(process.execPath, [file]);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      return JSON.parse(result.stdout) as unknown;
    },
    has: (packageName) => existsSync(path.join(dir, 'node_modules', packageName)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  return consumer;
}

function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OTEL_|FOOTPRINT_|OPENAI_|ANTHROPIC_)/.test(key)));
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
