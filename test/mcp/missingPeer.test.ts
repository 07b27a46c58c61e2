/**
 * The MCP SDK packages are optional peers. Without one, under a resolve hook that makes it not found
 * exactly as a missing package is: importing footprint-otel/mcp still works, connectMcp rejects with
 * McpPeerMissingError naming the package, and `demo --mcp` prints that one line and exits 1, no stack.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { compiled } from '../support/compiled.js';
import { scratchFolders } from '../support/scratch.js';

const CLI = compiled('src/cli/main.ts');
const MCP_ENTRY = compiled('src/mcp/index.ts');
const scratch = scratchFolders('footprint-mcp-peer-');

/** A folder with a --import module that hides `hidden` from the resolver, as if it were not installed. */
function without(hidden: string): { dir: string; importFlag: string } {
  const dir = scratch();
  writeFileSync(
    path.join(dir, 'hook.mjs'),
    `export async function resolve(specifier, context, next) {
  if (specifier === ${JSON.stringify(hidden)} || specifier.startsWith(${JSON.stringify(`${hidden}/`)})) {
    throw Object.assign(new Error("Cannot find package '" + ${JSON.stringify(hidden)} + "' imported from " + context.parentURL), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}
`,
  );
  writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hook.mjs', import.meta.url);\n`);
  return { dir, importFlag: pathToFileURL(path.join(dir, 'register.mjs')).href };
}

function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const LIBRARY = `
const mcp = await import(${JSON.stringify(pathToFileURL(MCP_ENTRY).href)});
try {
  await mcp.connectMcp({ command: process.execPath, args: ['-e', ''] });
  console.log('connected');
} catch (error) {
  console.log(JSON.stringify([error instanceof mcp.McpPeerMissingError, error.name, error.packageName, error.message]));
}`;

it('without @modelcontextprotocol/client: the entry imports, connectMcp rejects naming the package to install', async () => {
  const { dir, importFlag } = without('@modelcontextprotocol/client');
  const result = await run(['--import', importFlag, '--input-type=module', '-e', LIBRARY], dir);
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual([
    true,
    'McpPeerMissingError',
    '@modelcontextprotocol/client',
    'footprint-otel/mcp needs the optional package @modelcontextprotocol/client: npm install @modelcontextprotocol/client',
  ]);
}, 60_000);

it.each(['@modelcontextprotocol/client', '@modelcontextprotocol/server'])('demo --mcp without %s: one line naming it, exit 1', async (missing) => {
  const { dir, importFlag } = without(missing);
  const result = await run(['--import', importFlag, CLI, 'demo', '--no-color', '--mcp', '--ticket', 'Please send me a copy of my last invoice'], dir);
  expect([result.code, result.stderr]).toEqual([1, `footprint-otel: footprint-otel/mcp needs the optional package ${missing}: npm install ${missing}\n`]);
}, 60_000);
