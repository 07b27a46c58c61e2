/**
 * A stdio server's environment: the SDK's defaults, then the app's OTEL_* and FOOTPRINT_* settings
 * (but OTEL_SERVICE_NAME), then the server's own env; `telemetryEnv` turns the middle layer off or
 * replaces it. End to end: a traced fixture server started with no telemetry settings of its own,
 * under an app whose OTEL_EXPORTER_OTLP_ENDPOINT names a local receiver, exports there, in the app's trace.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/index.js';
import { serverEnvironment, telemetryVariables } from '../../src/mcp/serverEnv.js';
import { scratchFolders } from '../support/scratch.js';
import { deskAgent, FIXTURE, SLOW_START, startWorld, until, type World } from '../support/mcp/world.js';

const APP = {
  PATH: '/usr/bin',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
  OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme',
  OTEL_SERVICE_NAME: 'desk-agent',
  OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental',
  FOOTPRINT_OTEL_DETAIL: 'full',
  FOOTPRINT_UNSET: undefined,
  OTELX: 'not ours',
  MY_FOOTPRINT_THING: 'not ours',
  DATABASE_URL: 'postgres://secret',
};
const SDK_DEFAULTS = { PATH: '/usr/bin', HOME: '/home/app' };

describe('the environment a stdio server gets', () => {
  it("is the app's OTEL_* and FOOTPRINT_* variables but the service name, nothing else", () => {
    expect(telemetryVariables(APP)).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme',
      OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental',
      FOOTPRINT_OTEL_DETAIL: 'full',
    });
  });

  it("layers the SDK's defaults, the telemetry settings and the server's own env, each over the one before", () => {
    expect(serverEnvironment({ ...SDK_DEFAULTS, FOOTPRINT_OTEL_DETAIL: 'sdk' }, undefined, { OTEL_SERVICE_NAME: 'orders-mcp', FOOTPRINT_OTEL_DETAIL: 'basic' }, APP)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/app',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme',
      OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental',
      FOOTPRINT_OTEL_DETAIL: 'basic',
      OTEL_SERVICE_NAME: 'orders-mcp',
    });
  });

  it('telemetryEnv false gives none of them; a record gives exactly those instead', () => {
    expect(serverEnvironment(SDK_DEFAULTS, false, { DESK_DB: 'orders.db' }, APP)).toEqual({ ...SDK_DEFAULTS, DESK_DB: 'orders.db' });
    expect(serverEnvironment(SDK_DEFAULTS, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9999' }, undefined, APP)).toEqual({
      ...SDK_DEFAULTS,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9999',
    });
  });
});

describe('a traced stdio server under the app’s OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let world: World;
  const restore: Array<() => void> = [];
  const scratch = scratchFolders('footprint-mcp-env-');
  beforeAll(async () => {
    world = await startWorld();
    // the app's own settings, as a user sets them: the world already set the protocol and batch delay
    for (const [key, value] of Object.entries({ OTEL_EXPORTER_OTLP_ENDPOINT: world.receiver.url, OTEL_METRIC_EXPORT_INTERVAL: '3600000' })) {
      const before = process.env[key];
      process.env[key] = value;
      restore.push(() => (before === undefined ? delete process.env[key] : (process.env[key] = before)));
    }
  });
  afterAll(async () => {
    for (const undo of restore.splice(0)) undo();
    await world.stop();
  });

  it("exports to the app's endpoint: both services' spans in one trace, nothing written to the server's folder", async () => {
    const cwd = scratch();
    const mcp = await connectMcp({ command: process.execPath, args: [FIXTURE, 'stdio'], env: { OTEL_SERVICE_NAME: 'mcp-desk' }, cwd, stderr: 'inherit' }, SLOW_START);
    expect((await deskAgent(mcp).run('Where is order 7301?')).text).toBe('answer: order 7301: shipped');
    await mcp.close();
    const spans = await until(world, (all) => all.some((s) => s.name === 'orders.lookup' && s.attributes['order.id'] === '7301'));
    const lookup = spans.find((s) => s.name === 'orders.lookup' && s.attributes['order.id'] === '7301')!;
    expect(lookup.service).toBe('mcp-desk');
    const trace = spans.filter((s) => s.traceId === lookup.traceId);
    expect(new Set(trace.map((s) => s.service))).toEqual(new Set(['desk-agent', 'mcp-desk']));
    expect(trace.filter((s) => s.name === 'tools/call lookup_order').map((s) => s.service).sort()).toEqual(['desk-agent', 'mcp-desk']);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
