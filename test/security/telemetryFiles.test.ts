/**
 * Telemetry files hold prompts and answers under content capture, so the file exporters create them
 * readable and writable by their owner only (0600) then; without capture they keep the usual mode
 * (0666 less the process umask).
 */
import { statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSpanExporter } from '../../src/telemetry/files/fileExporters.js';
import { captureContent, endCapture } from '../providers/capture.js';

let folder: string | undefined;
afterEach(async () => {
  endCapture();
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

async function modeOfNewTraceFile(): Promise<number> {
  folder = await mkdtemp(path.join(tmpdir(), 'fp-modes-'));
  const exporter = fileSpanExporter({ directory: folder });
  const result = await new Promise<{ code: number }>((resolve) => exporter.export([], resolve));
  expect(result.code).toBe(0);
  const [file] = exporter.files();
  await exporter.shutdown();
  return statSync(file!).mode & 0o777;
}

describe('telemetry file modes', () => {
  it('under content capture: 0600', async () => {
    captureContent();
    expect(await modeOfNewTraceFile()).toBe(0o600);
  });

  it('without content capture: the mode any new file gets (0666 less the umask)', async () => {
    const mode = await modeOfNewTraceFile();
    const plain = path.join(folder!, 'plain.txt');
    writeFileSync(plain, '');
    expect(mode).toBe(statSync(plain).mode & 0o777);
  });
});
