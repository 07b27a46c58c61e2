// test/support/backends.ts decides whether a missing backend skips or fails; that decision is the
// guard against a green run that tested nothing, so it is tested itself (env overrides, CI and
// FOOTPRINT_REQUIRE_BACKENDS), together with the build script's syntax and output.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { backendsRequired, binaryEnvVar, findBinary, freePort, missingReason, requireBinary, waitFor } from '../support/backends.js';
import { PATHS, readText, repoPath } from './stack-files.js';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('backend binary lookup', () => {
  it('honours a per-binary env override and reports a bad one as missing', () => {
    expect(binaryEnvVar('otelcol')).toBe('FOOTPRINT_OTELCOL_BIN');
    process.env.FOOTPRINT_PROMTOOL_BIN = process.execPath; // any executable will do
    expect(findBinary('promtool')).toBe(process.execPath);
    process.env.FOOTPRINT_PROMTOOL_BIN = '/nonexistent/promtool';
    expect(findBinary('promtool')).toBeUndefined();
  });

  it('fails on a missing binary under CI or FOOTPRINT_REQUIRE_BACKENDS=1, and only returns undefined otherwise', () => {
    process.env.FOOTPRINT_OTELCOL_BIN = '/nonexistent/otelcol';
    delete process.env.CI;
    delete process.env.FOOTPRINT_REQUIRE_BACKENDS;
    expect(backendsRequired()).toBe(false);
    expect(requireBinary('otelcol')).toBeUndefined();

    process.env.CI = 'true';
    expect(backendsRequired()).toBe(true);
    expect(() => requireBinary('otelcol')).toThrow(/required backend missing: otelcol not found/);

    delete process.env.CI;
    process.env.FOOTPRINT_REQUIRE_BACKENDS = '1';
    expect(() => requireBinary('otelcol')).toThrow(/build-backends\.sh/);
    expect(missingReason('otelcol')).toContain('FOOTPRINT_OTELCOL_BIN');
  });

  it('hands out distinct free ports and polls with a deadline', async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    expect(ports.every((p) => p > 0 && p < 65536)).toBe(true);
    let n = 0;
    await expect(waitFor(() => ++n >= 3 && n, { intervalMs: 5 })).resolves.toBe(3);
    await expect(waitFor(() => false, { timeoutMs: 50, intervalMs: 10, what: 'nothing' })).rejects.toThrow(/waiting for nothing/);
  });
});

describe('scripts/build-backends.sh', () => {
  it('is valid bash, strict, pins every release once and reports every binary it builds', () => {
    const r = spawnSync('bash', ['-n', PATHS.buildScript], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const text = readText(PATHS.buildScript);
    expect(text).toContain('set -euo pipefail');
    expect([...text.matchAll(/^readonly (\w+_VERSION)=/gm)].map((m) => m[1])).toEqual(['JAEGER_VERSION', 'PROMETHEUS_VERSION', 'ALERTMANAGER_VERSION', 'COLLECTOR_VERSION']);
    for (const binary of ['prometheus', 'promtool', 'alertmanager', 'amtool', 'jaeger', 'otelcol-footprint']) expect(text).toContain(`/bin/${binary}"`);
    // No registry or mirror host in the repository: the Go toolchain's own GOPROXY setting is used.
    expect(text).not.toMatch(/https?:\/\//);
  });

  it('names the collector release its distribution go.mod pins for every collector module', () => {
    const version = /^readonly COLLECTOR_VERSION=(\S+)/m.exec(readText(PATHS.buildScript))![1];
    const gomod = readText(repoPath('deploy/otel-collector/distribution/go.mod'));
    const collectorModules = [...gomod.matchAll(/^\s+(\S*(?:go\.opentelemetry\.io\/collector|opentelemetry-collector-contrib)\S*) (v\S+)/gm)];
    expect(collectorModules.length).toBeGreaterThanOrEqual(10);
    // Stable modules (component, confmap, ...) are v1.x of the same release; the rest are v0.<release>.
    const versions = new Set(collectorModules.map((m) => m[2]));
    expect([...versions].filter((v) => !/^v1\.\d+\.\d+$/.test(v!)).sort()).toEqual([`v${version}`]);
    expect([...versions].filter((v) => /^v1\./.test(v!)).length).toBe(1);
  });
});
