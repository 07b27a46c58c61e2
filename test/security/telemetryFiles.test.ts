/**
 * Telemetry files hold prompts and answers under content capture, so startTelemetry asks the file
 * exporters for files readable and writable by their owner only (0600) then; without capture they keep
 * the usual mode (0666 less the process umask). The decision is startTelemetry's captureContent
 * (default: the GenAI capture variable, read once at start).
 */
import { statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSpanExporter } from '../../src/telemetry/files/fileExporters.js';
import { startTelemetry } from '../../src/telemetry/index.js';
import { captureContent, endCapture } from '../runtime/providers/capture.js';

let folder: string | undefined;
afterEach(async () => {
  endCapture();
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

async function modeOfNewTraceFile(ownerOnly: boolean): Promise<number> {
  folder = await mkdtemp(path.join(tmpdir(), 'fp-modes-'));
  const exporter = fileSpanExporter({ directory: folder, ownerOnly });
  const result = await new Promise<{ code: number }>((resolve) => exporter.export([], resolve));
  expect(result.code).toBe(0);
  const [file] = exporter.files();
  await exporter.shutdown();
  return statSync(file!).mode & 0o777;
}

describe('telemetry file modes', () => {
  it('owner-only files: 0600', async () => {
    expect(await modeOfNewTraceFile(true)).toBe(0o600);
  });

  it('otherwise: the mode any new file gets (0666 less the umask)', async () => {
    const mode = await modeOfNewTraceFile(false);
    const plain = path.join(folder!, 'plain.txt');
    writeFileSync(plain, '');
    expect(mode).toBe(statSync(plain).mode & 0o777);
  });
});

describe("startTelemetry's content-capture decision reaches the files", () => {
  const modesOfStartedFiles = async (options: { captureContent?: boolean }): Promise<number[]> => {
    folder = await mkdtemp(path.join(tmpdir(), 'fp-modes-'));
    const telemetry = startTelemetry({ fileDirectory: folder, handleExit: false, ...options });
    trace.getTracer('t').startSpan('one').end();
    await telemetry.forceFlush();
    const files = telemetry.files();
    await telemetry.shutdown();
    return [...files.traces, ...files.metrics].map((file) => statSync(file).mode & 0o777);
  };

  it('captureContent: true makes them 0600, as the capture variable does when the option is not given', async () => {
    expect(await modesOfStartedFiles({ captureContent: true })).toEqual([0o600, 0o600]);
    captureContent();
    expect(await modesOfStartedFiles({})).toEqual([0o600, 0o600]);
  });

  it('captureContent: false wins over the capture variable', async () => {
    captureContent();
    const modes = await modesOfStartedFiles({ captureContent: false });
    const plain = path.join(folder!, 'plain.txt');
    writeFileSync(plain, '');
    const usual = statSync(plain).mode & 0o777;
    expect([usual === 0o600, modes]).toEqual([false, [usual, usual]]);
  });
});
