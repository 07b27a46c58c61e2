/**
 * Everything a failed run can let out of the process, gathered as text so a test can search it for
 * secrets: the exported spans (names, attributes, events, status, resource), the same spans and the
 * collected metrics written through the real telemetry file exporters, the thrown error with its
 * cause chain, and every console or OTel diag log line.
 */
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { fileMetricExporter, fileSpanExporter } from '../../../src/telemetry/files/fileExporters.js';

/** The forms a secret takes in text: as is, JSON-escaped, URL-encoded. */
export function formsOf(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])];
}

/** Every place in `texts` (by label) where any form of any secret (by label) occurs. */
export function leaksIn(texts: Record<string, string>, secrets: Record<string, string>): string[] {
  const found = new Set<string>();
  for (const [where, text] of Object.entries(texts)) {
    for (const [what, secret] of Object.entries(secrets)) {
      if (formsOf(secret).some((form) => text.includes(form))) found.add(`${what} in ${where}`);
    }
  }
  return [...found];
}

export function spansText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links,
      resource: span.resource.attributes,
    })),
  );
}

/** The error's message, stack and own fields, and the same for every cause below it. */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    if (current instanceof Error) {
      parts.push(current.message, current.stack ?? '', JSON.stringify({ ...current }));
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  return parts.join('\n');
}

/** Writes spans and metrics through the real file exporters into a fresh folder; returns the files' text. */
export async function telemetryFilesText(spans: ReadableSpan[], metrics: ResourceMetrics): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'secrets-'));
  try {
    const traces = fileSpanExporter({ directory: folder });
    const points = fileMetricExporter({ directory: folder });
    await new Promise<void>((resolve, reject) => traces.export(spans, (r) => (r.error ? reject(r.error) : resolve())));
    await new Promise<void>((resolve, reject) => points.export(metrics, (r) => (r.error ? reject(r.error) : resolve())));
    await Promise.all([traces.shutdown(), points.shutdown()]);
    const written = await Promise.all([...traces.files(), ...points.files()].map((file) => readFile(file, 'utf8')));
    return written.join('');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Collects every console line and every OTel diag message until `stop()`. */
export function captureLogs(): { lines: string[]; stop(): void } {
  const lines: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const originals = methods.map((method) => console[method]);
  const record = (...args: unknown[]) =>
    lines.push(args.map((a) => (a instanceof Error ? errorText(a) : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  for (const method of methods) console[method] = record;
  const logger: DiagLogger = { error: record, warn: record, info: record, debug: record, verbose: record };
  diag.setLogger(logger, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
  return {
    lines,
    stop() {
      methods.forEach((method, index) => (console[method] = originals[index]!));
      diag.disable();
    },
  };
}
