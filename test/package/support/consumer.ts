/**
 * A consumer project: a fresh folder under the system's temp directory with an ESM package.json, the
 * packed tarball and the given packages installed by npm from the machine's configured registry
 * (cache first), and a way to run commands in it with an environment free of OTEL_* settings.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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
  return {
    dir,
    run: (command, args, env = {}) => run(command, args, { cwd: dir, env: { ...cleanEnv(), PATH: `${path.join(dir, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`, ...env } }),
    write: (file, text) => {
      const target = path.join(dir, file);
      writeFileSync(target, text);
      return target;
    },
    has: (packageName) => existsSync(path.join(dir, 'node_modules', packageName)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
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
