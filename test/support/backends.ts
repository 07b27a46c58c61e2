// Real observability backends for tests, on a machine without Docker: locate the binaries that
// scripts/build-backends.sh builds from pinned sources (promtool, Prometheus 3, Alertmanager,
// amtool, the collector distribution, Jaeger v2), and those scripts/build-distributed.sh builds
// (Thanos, an OpenSearch home), and start/stop them on 127.0.0.1 with free ports
// and temp data dirs, plus an in-process webhook receiver that collects Alertmanager notifications.
// A missing binary must never pass silently: under CI (process.env.CI) or
// FOOTPRINT_REQUIRE_BACKENDS=1 the suite FAILS; elsewhere it is skipped with the reason in its name.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import YAML from 'yaml';

// ---------------------------------------------------------------------------------------------
// Locating binaries

export type BackendBinary = 'promtool' | 'prometheus' | 'alertmanager' | 'amtool' | 'otelcol' | 'jaeger' | 'thanos' | 'opensearch';

/** Executable names tried on PATH and in the backends folder, in order. */
const CANDIDATES: Record<BackendBinary, string[]> = {
  promtool: ['promtool'],
  prometheus: ['prometheus'],
  alertmanager: ['alertmanager'],
  amtool: ['amtool'],
  // deploy/otel-collector/distribution, built by scripts/build-backends.sh.
  otelcol: ['otelcol-footprint'],
  jaeger: ['jaeger'],
  // scripts/build-distributed.sh: the Thanos binary, and an OpenSearch home (a folder: its lib/ holds the jars).
  thanos: ['thanos'],
  opensearch: ['opensearch-home'],
};

/** The parts scripts/build-distributed.sh builds; the rest come from scripts/build-backends.sh. */
const DISTRIBUTED: ReadonlySet<BackendBinary> = new Set(['thanos', 'opensearch']);

function installHint(name: BackendBinary): string {
  return DISTRIBUTED.has(name)
    ? 'run `bash scripts/build-distributed.sh` (needs Go, Maven, Java 17, the Go module proxy and Maven Central)'
    : 'run `bash scripts/build-backends.sh` (needs Go and the Go module proxy)';
}

/** Folder build-backends.sh builds into (env FOOTPRINT_BACKENDS_DIR overrides); its bin/ links the pinned builds. */
export function backendsDir(): string {
  return process.env.FOOTPRINT_BACKENDS_DIR ?? '/opt/footprint-backends';
}

/** Env var that points straight at a binary, e.g. FOOTPRINT_OTELCOL_BIN. */
export function binaryEnvVar(name: BackendBinary): string {
  return `FOOTPRINT_${name.toUpperCase().replace(/-/g, '_')}_BIN`;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Path of a backend binary: env override, then the backends folder, then PATH. */
export function findBinary(name: BackendBinary): string | undefined {
  const override = process.env[binaryEnvVar(name)];
  if (override) return isExecutable(override) ? override : undefined;
  const dirs = [path.join(backendsDir(), 'bin'), ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/usr/local/bin'];
  for (const exe of CANDIDATES[name]) {
    for (const dir of dirs) {
      const file = path.join(dir, exe);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

/** True when a missing backend must fail the run instead of skipping (CI, or asked for). */
export function backendsRequired(): boolean {
  const ci = process.env.CI;
  return (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') || process.env.FOOTPRINT_REQUIRE_BACKENDS === '1';
}

export function missingReason(name: BackendBinary): string {
  return `${name} not found (${binaryEnvVar(name)}, ${path.join(backendsDir(), 'bin')}, PATH); ${installHint(name)}`;
}

/**
 * The path of a backend binary. Missing: throws when backends are required (CI /
 * FOOTPRINT_REQUIRE_BACKENDS=1), else returns undefined so the caller skips with missingReason().
 */
export function requireBinary(name: BackendBinary): string | undefined {
  const found = findBinary(name);
  if (found) return found;
  if (backendsRequired()) {
    throw new Error(`required backend missing: ${missingReason(name)} (CI or FOOTPRINT_REQUIRE_BACKENDS=1 makes this a failure)`);
  }
  return undefined;
}

/**
 * describe() that needs backend binaries. All present: runs `body` with their paths. Missing and
 * required: a failing test that names what is missing. Missing otherwise: a skipped suite whose
 * name carries the reason (and a warning on stderr).
 */
export function describeWithBackends(
  title: string,
  names: readonly BackendBinary[],
  body: (bins: Record<BackendBinary, string>) => void,
): void {
  const found: Partial<Record<BackendBinary, string>> = {};
  const missing: BackendBinary[] = [];
  for (const n of names) {
    const p = findBinary(n);
    if (p) found[n] = p;
    else missing.push(n);
  }
  if (missing.length === 0) {
    describe(title, () => body(found as Record<BackendBinary, string>));
    return;
  }
  const reason = missing.map(missingReason).join('; ');
  if (backendsRequired()) {
    describe(title, () => {
      it('has the backend binaries it needs', () => {
        for (const n of missing) requireBinary(n); // throws with the reason
      });
    });
    return;
  }
  console.warn(`[backends] skipping "${title}": ${reason}`);
  describe.skip(`${title} [SKIPPED: ${reason}]`, () => body(found as Record<BackendBinary, string>));
}

// ---------------------------------------------------------------------------------------------
// Small utilities

/** A free TCP port on 127.0.0.1 (closed again before returning; the caller binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      if (addr === null || typeof addr === 'string') return reject(new Error('no port'));
      srv.close(() => resolve(addr.port));
    });
  });
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Shown in the timeout error. */
  what?: string;
}

/** Polls `probe` until it returns a value other than undefined/false, or the deadline passes. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, opts: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 200, what = 'condition' } = opts;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const tail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}${tail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

async function httpOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Processes

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface Backend {
  name: string;
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  dataDir: string;
  /** Last lines of the process's stdout/stderr. */
  logs(): string;
  stop(): Promise<void>;
}

interface SpawnSpec {
  name: string;
  bin: string;
  args: (port: number, dataDir: string) => string[];
  /** Path polled until it answers 2xx. */
  readyPath: string;
  /** Files to write into the data dir before start (name -> content). */
  files?: (port: number, dataDir: string) => Record<string, string>;
  timeoutMs?: number;
}

export interface ProgramSpec {
  name: string;
  bin: string;
  args: string[];
  /** Added to this process's environment. */
  env?: Record<string, string>;
  cwd: string;
  /** Polled until it answers 2xx. */
  readyUrl: string;
  timeoutMs?: number;
}

export interface Program {
  name: string;
  /** Every line of the process's stdout/stderr so far (the last 5,000). */
  logs(): string;
  /** Exit code or signal once it exited, else undefined. */
  exitStatus(): number | string | null | undefined;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 s); resolves when it exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once (a crash, for fault tests); resolves when it exited. */
  kill(): Promise<void>;
}

/** Starts a program and resolves once `readyUrl` answers; rejects with its log when it does not. */
export async function startProgram(spec: ProgramSpec): Promise<Program> {
  const lines: string[] = [];
  const child = spawn(spec.bin, spec.args, { cwd: spec.cwd, env: { ...process.env, ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(line);
    if (lines.length > 5_000) lines.splice(0, lines.length - 5_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | string | null | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = code ?? signal;
      live.delete(child);
      resolve();
    });
    child.once('error', (err) => {
      lines.push(`spawn error: ${err.message}`);
      exited = 'spawn-error';
      live.delete(child);
      resolve();
    });
  });
  const end = async (signal: NodeJS.Signals, graceMs = 5_000) => {
    if (exited !== undefined) return;
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exitPromise;
    clearTimeout(killer);
  };
  const program: Program = {
    name: spec.name,
    logs: () => lines.join('\n'),
    exitStatus: () => exited,
    stop: (graceMs) => end('SIGTERM', graceMs),
    kill: () => end('SIGKILL'),
  };
  try {
    await waitFor(async () => (exited !== undefined ? Promise.reject(new Error(`exited with ${exited}`)) : httpOk(spec.readyUrl)), {
      timeoutMs: spec.timeoutMs ?? 30_000,
      what: `${spec.name} ready at ${spec.readyUrl}`,
    });
    return program;
  } catch (err) {
    await program.kill();
    throw new Error(`${spec.name} did not start: ${(err as Error).message}\n--- ${spec.name} log ---\n${lines.slice(-40).join('\n')}`);
  }
}

async function spawnBackend(spec: SpawnSpec): Promise<Backend> {
  let lastErr: unknown;
  // A freshly probed port can be taken before the child binds it: retry with a new one.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `footprint-${spec.name}-`));
    for (const [file, content] of Object.entries(spec.files?.(port, dataDir) ?? {})) {
      writeFileSync(path.join(dataDir, file), content);
    }
    const url = `http://127.0.0.1:${port}`;
    try {
      const program = await startProgram({ name: spec.name, bin: spec.bin, args: spec.args(port, dataDir), cwd: dataDir, readyUrl: url + spec.readyPath, timeoutMs: spec.timeoutMs ?? 20_000 });
      return {
        name: spec.name,
        url,
        port,
        dataDir,
        logs: () => program.logs(),
        async stop() {
          await program.stop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      lastErr = err;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  throw lastErr;
}

async function getJson<T = unknown>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const body = await res.text();
  if (!res.ok) throw new Error(`GET ${url} -> ${res.status}: ${body.slice(0, 500)}`);
  return JSON.parse(body) as T;
}

// ---------------------------------------------------------------------------------------------
// PromQL over Prometheus's HTTP API

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface PromQueryable {
  url: string;
  /** Instant query; throws on an API error. */
  query(expr: string, time?: number): Promise<PromSample[]>;
  /** Raw API answer (status/errorType/error/data) without throwing. */
  queryRaw(expr: string): Promise<{ status: string; error?: string; errorType?: string; data?: { resultType: string; result: unknown } }>;
}

function promApi(url: string): PromQueryable {
  const queryRaw = async (expr: string, time?: number) => {
    const params = new URLSearchParams({ query: expr });
    if (time !== undefined) params.set('time', String(time));
    const res = await fetch(`${url}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: params.toString(),
      signal: AbortSignal.timeout(10_000),
    });
    return (await res.json()) as { status: string; error?: string; errorType?: string; data?: { resultType: string; result: unknown } };
  };
  return {
    url,
    queryRaw: (expr) => queryRaw(expr),
    async query(expr, time) {
      const body = await queryRaw(expr, time);
      if (body.status !== 'success') throw new Error(`query failed: ${body.errorType}: ${body.error}\n${expr}`);
      if (body.data?.resultType !== 'vector') throw new Error(`expected a vector, got ${body.data?.resultType}`);
      return body.data.result as PromSample[];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Alertmanager

export interface AlertmanagerOptions {
  /** Full alertmanager.yml content; default: everything to `webhookUrl`. */
  config?: string;
  webhookUrl?: string;
}

export async function startAlertmanager(opts: AlertmanagerOptions, bin = requireBinary('alertmanager')): Promise<Backend> {
  if (!bin) throw new Error(missingReason('alertmanager'));
  const config =
    opts.config ??
    [
      'route:',
      '  receiver: webhook',
      '  group_by: [alertname, service_name]',
      '  group_wait: 0s',
      '  group_interval: 1s',
      '  repeat_interval: 1h',
      'receivers:',
      '  - name: webhook',
      '    webhook_configs:',
      `      - url: ${JSON.stringify(opts.webhookUrl ?? 'http://127.0.0.1:9/none')}`,
      '        send_resolved: true',
      '',
    ].join('\n');
  return spawnBackend({
    name: 'alertmanager',
    bin,
    readyPath: '/-/ready',
    files: () => ({ 'alertmanager.yml': config }),
    args: (port, dir) => [
      `--config.file=${path.join(dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=', // no gossip port
      '--log.level=warn',
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Prometheus 3 (rule evaluation, PromQL, and the OTLP receiver with the shipped OTLP settings)

export interface PrometheusOptions {
  ruleFiles?: string[];
  /** host:port of an Alertmanager, e.g. new URL(am.url).host */
  alertmanagerTarget?: string;
  evaluationInterval?: string;
  /** Extra raw YAML appended to the generated prometheus.yml (e.g. scrape_configs). */
  extraConfig?: string;
}

export interface Prometheus extends Backend, PromQueryable {
  /** OTLP/HTTP metrics endpoint (--web.enable-otlp-receiver) for OTLPMetricExporter({ url }). */
  otlpMetricsUrl: string;
  /** Metric names that have series matching `selector` (e.g. '{service_name="x"}'). */
  metricNames(selector: string): Promise<string[]>;
  rules(): Promise<Array<{ name: string; rules: Array<{ name: string; type: string; health: string; lastError?: string; state?: string }> }>>;
  alerts(): Promise<Array<{ labels: Record<string, string>; annotations: Record<string, string>; state: string; value: string }>>;
}

/** The `otlp:` and `storage:` sections of the shipped deploy/prometheus/prometheus.yml, as YAML text. */
function shippedOtlpSettings(): string {
  const shipped = YAML.parse(readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../deploy/prometheus/prometheus.yml'), 'utf8'));
  return YAML.stringify({ otlp: shipped.otlp, storage: shipped.storage });
}

export async function startPrometheus(opts: PrometheusOptions = {}, bin = requireBinary('prometheus')): Promise<Prometheus> {
  if (!bin) throw new Error(missingReason('prometheus'));
  const lines = ['global:', `  evaluation_interval: ${opts.evaluationInterval ?? '1s'}`, '  scrape_interval: 15s'];
  if (opts.ruleFiles?.length) lines.push('rule_files:', ...opts.ruleFiles.map((f) => `  - ${JSON.stringify(f)}`));
  if (opts.alertmanagerTarget) {
    lines.push('alerting:', '  alertmanagers:', '    - static_configs:', `        - targets: [${JSON.stringify(opts.alertmanagerTarget)}]`);
  }
  lines.push(shippedOtlpSettings());
  if (opts.extraConfig) lines.push(opts.extraConfig);
  const b = await spawnBackend({
    name: 'prometheus',
    bin,
    readyPath: '/-/ready',
    files: () => ({ 'prometheus.yml': lines.join('\n') + '\n' }),
    args: (port, dir) => [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-otlp-receiver',
      '--web.enable-remote-write-receiver',
      '--log.level=warn',
    ],
  });
  return {
    ...b,
    ...promApi(b.url),
    otlpMetricsUrl: `${b.url}/api/v1/otlp/v1/metrics`,
    async metricNames(selector) {
      const body = await getJson<{ data: string[] }>(`${b.url}/api/v1/label/__name__/values?${new URLSearchParams({ 'match[]': selector })}`);
      return body.data;
    },
    async rules() {
      const body = await getJson<{ data: { groups: Awaited<ReturnType<Prometheus['rules']>> } }>(`${b.url}/api/v1/rules`);
      return body.data.groups;
    },
    async alerts() {
      const body = await getJson<{ data: { alerts: Awaited<ReturnType<Prometheus['alerts']>> } }>(`${b.url}/api/v1/alerts`);
      return body.data.alerts;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Webhook receiver (what Alertmanager would page)

export interface ReceivedAlert {
  /** Request path, e.g. /alertmanager/page */
  path: string;
  status: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  receiver?: string;
}

export interface WebhookReceiver {
  url: string;
  alerts(): ReceivedAlert[];
  /** Resolves with the first alert matching `pred`, or rejects at the deadline. */
  waitForAlert(pred: (a: ReceivedAlert) => boolean, opts?: WaitOptions): Promise<ReceivedAlert>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedAlert[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          status?: string;
          receiver?: string;
          alerts?: Array<{ status?: string; labels?: Record<string, string>; annotations?: Record<string, string> }>;
        };
        for (const a of body.alerts ?? []) {
          received.push({
            path: new URL(req.url ?? '/', 'http://x').pathname,
            status: a.status ?? body.status ?? 'unknown',
            labels: a.labels ?? {},
            annotations: a.annotations ?? {},
            receiver: body.receiver,
          });
        }
        res.writeHead(200).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    alerts: () => [...received],
    waitForAlert: (pred, opts) => waitFor(() => received.find(pred), { what: 'a matching alert at the webhook', ...opts }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Stops whatever started, ignoring the ones that did not. */
export async function stopAll(...items: Array<{ stop?: () => Promise<void>; close?: () => Promise<void> } | undefined>): Promise<void> {
  await Promise.all(items.map((i) => (i?.stop ? i.stop() : i?.close ? i.close() : undefined)?.catch(() => undefined)));
}
