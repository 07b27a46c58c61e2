#!/usr/bin/env node
// Loads a run recorded offline into a live stack: POSTs every line of <dir>/traces-*.jsonl and
// <dir>/metrics-*.jsonl (one file per process and rotation; the older traces.jsonl / metrics.jsonl
// too) unchanged to an OTLP/HTTP endpoint, e.g. the compose stack's collector. Each line is one
// OTLP/JSON export request, the format of OTel's file exporter, which is what footprint-otel writes
// when no destination is configured:
//
//   node scripts/replay-telemetry.mjs telemetry/ http://localhost:4318
//
// Why a script: the collector's otlpjsonfile receiver, which reads these files itself, is not
// available on the Go module proxy at the collector release this project pins (0.161.0). Spans keep
// their trace ids and timestamps, so the collector samples and Jaeger shows them as they ran; metric
// points keep their timestamps too (Prometheus accepts them within its out-of-order window, 30m in
// deploy/prometheus/prometheus.yml). No dependencies; exits non-zero when a request is refused.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, endpoint] = process.argv.slice(2);
if (!dir || !endpoint) {
  console.error('usage: node scripts/replay-telemetry.mjs <telemetry dir> <OTLP/HTTP endpoint, e.g. http://localhost:4318>');
  process.exit(2);
}

let sent = 0;
/** The signal's files in write order (their names start with the UTC time the process started). */
const filesOf = (signal) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => name === `${signal}.jsonl` || (name.startsWith(`${signal}-`) && name.endsWith('.jsonl'))).sort() : [];

for (const [file, signal] of ['traces', 'metrics'].flatMap((signal) => filesOf(signal).map((name) => [name, signal]))) {
  const source = path.join(dir, file);
  const lines = readFileSync(source, 'utf8').split('\n').filter((line) => line.trim() !== '');
  for (const [index, line] of lines.entries()) {
    const res = await fetch(`${endpoint.replace(/\/$/, '')}/v1/${signal}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: line,
    });
    if (!res.ok) {
      console.error(`${source} line ${index + 1}: ${res.status} ${await res.text()}`);
      process.exit(1);
    }
    sent++;
  }
  console.log(`${source}: ${lines.length} request(s) replayed to ${endpoint}`);
}
if (sent === 0) {
  console.error(`no traces-*.jsonl or metrics-*.jsonl in ${dir}`);
  process.exit(1);
}
