// test/support/backends.ts decides whether a missing backend skips or fails; that decision is the
// guard against a green run that tested nothing, so it is tested itself (env overrides, CI and
// FOOTPRINT_REQUIRE_BACKENDS), together with the install script's syntax.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { backendsRequired, binaryEnvVar, findBinary, freePort, missingReason, requireBinary, waitFor } from '../support/backends.js';
import { PATHS, readText } from './stack-files.js';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('backend binary lookup', () => {
  it('honours a per-binary env override and reports a bad one as missing', () => {
    expect(binaryEnvVar('victoria-metrics')).toBe('FOOTPRINT_VICTORIA_METRICS_BIN');
    process.env.FOOTPRINT_PROMTOOL_BIN = process.execPath; // any executable will do
    expect(findBinary('promtool')).toBe(process.execPath);
    process.env.FOOTPRINT_PROMTOOL_BIN = '/nonexistent/promtool';
    expect(findBinary('promtool')).toBeUndefined();
  });

  it('fails on a missing binary under CI or FOOTPRINT_REQUIRE_BACKENDS=1, and only returns undefined otherwise', () => {
    process.env.FOOTPRINT_VMALERT_BIN = '/nonexistent/vmalert';
    delete process.env.CI;
    delete process.env.FOOTPRINT_REQUIRE_BACKENDS;
    expect(backendsRequired()).toBe(false);
    expect(requireBinary('vmalert')).toBeUndefined();

    process.env.CI = 'true';
    expect(backendsRequired()).toBe(true);
    expect(() => requireBinary('vmalert')).toThrow(/required backend missing: vmalert not found/);

    delete process.env.CI;
    process.env.FOOTPRINT_REQUIRE_BACKENDS = '1';
    expect(() => requireBinary('vmalert')).toThrow(/install-backends\.sh/);
    expect(missingReason('vmalert')).toContain('FOOTPRINT_VMALERT_BIN');
  });

  it('hands out distinct free ports and polls with a deadline', async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    expect(ports.every((p) => p > 0 && p < 65536)).toBe(true);
    let n = 0;
    await expect(waitFor(() => ++n >= 3 && n, { intervalMs: 5 })).resolves.toBe(3);
    await expect(waitFor(() => false, { timeoutMs: 50, intervalMs: 10, what: 'nothing' })).rejects.toThrow(/waiting for nothing/);
  });
});

describe('scripts/install-backends.sh', () => {
  it('is valid bash, strict, and keeps /etc/apt untouched (private apt config)', () => {
    const r = spawnSync('bash', ['-n', PATHS.installScript], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const text = readText(PATHS.installScript);
    expect(text).toContain('set -euo pipefail');
    expect(text).toMatch(/Dir::Etc::sourcelist=/);
    expect(text).toMatch(/Dir::State::Lists=/);
    expect(text).not.toMatch(/>\s*\/etc\/apt/);
    for (const name of ['promtool=', 'alertmanager=', 'victoria-metrics=', 'vmalert=']) expect(text).toContain(`echo "${name}`);
  });
});
