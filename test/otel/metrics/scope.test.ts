/**
 * The meters the metrics instrument records into are scoped like the tracer: the bridge's name, its
 * package version, and the schema URL of the semantic conventions their gen_ai.* metrics follow
 * (v1.41.0, and the GenAI development channel for the metrics merged since), so a consumer can tell
 * which conventions and which build a point comes from.
 */
import { readFileSync } from 'node:fs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, registerInstrument, scripted } from '../../../src/index.js';
import { INSTRUMENTATION_VERSION } from '../../../src/otel/encoding/index.js';
import { metricsInstrument } from '../../../src/otel/metrics/index.js';
import { ManualReader } from '../../support/meter.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('the meter scope', () => {
  const reader = new ManualReader();
  const provider = new MeterProvider({ readers: [reader] });
  const unregister = registerInstrument(metricsInstrument({ meterProvider: provider }));
  afterAll(async () => {
    unregister();
    await provider.shutdown();
  });

  it("is the package name and version with the v1.41 schema URL, and a second scope with the development channel's", async () => {
    await Agent.create({ provider: scripted({ replies: ['hi'] }), model: 'm', id: 'greeter' }).build().run('hello');
    const { resourceMetrics } = await reader.collect();
    expect(resourceMetrics.scopeMetrics.map((scope) => scope.scope)).toEqual([
      { name: 'footprint-otel', version: PACKAGE_VERSION, schemaUrl: 'https://opentelemetry.io/schemas/1.41.0' },
      { name: 'footprint-otel', version: PACKAGE_VERSION, schemaUrl: 'https://opentelemetry.io/schemas/gen-ai-dev/1.42.0-dev' },
    ]);
  });

  it("names the package's version (the tracer uses the same constant)", () => {
    expect(INSTRUMENTATION_VERSION).toBe(PACKAGE_VERSION);
  });
});
