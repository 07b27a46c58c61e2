// The compose stack without Docker: every service of docker-compose.yml that test/stack and
// test/distributed run (collector, Jaeger, Prometheus, Alertmanager, alert-sink; with the profile
// `distributed` also OpenSearch, Thanos and their collector and Prometheus) started as a local
// process on 127.0.0.1,
// with the command, mounts and environment docker-compose.yml gives it and its config files passed
// through the one transform of localize.ts (host names and ports, mount paths). Ports come from one
// table: for each service, the container port it listens on -> a free 127.0.0.1 port.
import { chownSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startProgram, type Program } from '../backends.js';
import { localizeString, localizeTree, localizeYaml, type Localization } from './localize.js';
import { durationSeconds, loadYaml, PATHS, REPO, readText, type Json } from '../../stack/stack-files.js';

export type StackService =
  | 'otel-collector'
  | 'otel-collector-2'
  | 'otel-gateway'
  | 'jaeger'
  | 'prometheus'
  | 'alertmanager'
  | 'alert-sink'
  | OpenSearchNode
  | ThanosReceiver
  | 'jaeger-opensearch'
  | 'thanos-query'
  | 'thanos-rule'
  | 'otel-collector-distributed'
  | 'prometheus-distributed';

/** The compose profile `distributed`'s OpenSearch nodes and Thanos receivers. */
export type OpenSearchNode = 'opensearch-1' | 'opensearch-2' | 'opensearch-3';
export type ThanosReceiver = 'thanos-receive-1' | 'thanos-receive-2' | 'thanos-receive-3';

/** The container ports each service listens on, as its shipped files and image defaults set them. */
export const LISTENERS: Readonly<Record<StackService, readonly number[]>> = {
  'otel-collector': [4317, 4318, 13133, 8888],
  // --profile gateway: the second tail sampler and the load-balancing tier in front of both.
  'otel-collector-2': [4317, 4318, 13133, 8888],
  'otel-gateway': [4317, 4318, 13133, 8888],
  jaeger: [4317, 4318, 13133, 16685, 16686, 8888],
  prometheus: [9090],
  alertmanager: [9093, 9094],
  'alert-sink': [9099],
  // --profile distributed: OpenSearch's HTTP and transport ports, Thanos's gRPC, remote-write, HTTP
  // and Cap'n Proto listeners (receive) and gRPC and HTTP (query, rule).
  'opensearch-1': [9200, 9300],
  'opensearch-2': [9200, 9300],
  'opensearch-3': [9200, 9300],
  'jaeger-opensearch': [4317, 4318, 13133, 16685, 16686, 8888],
  'thanos-receive-1': [10907, 10908, 10909, 19391],
  'thanos-receive-2': [10907, 10908, 10909, 19391],
  'thanos-receive-3': [10907, 10908, 10909, 19391],
  'thanos-query': [10901, 10902],
  'thanos-rule': [10901, 10902],
  'otel-collector-distributed': [4317, 4318, 13133, 8888],
  'prometheus-distributed': [9090],
};

/** service -> container port -> 127.0.0.1 port, for the services a test starts. */
export type PortTable = Partial<Record<StackService, Record<number, number>>>;

export async function allocatePorts(services: readonly StackService[]): Promise<PortTable> {
  const table = {} as PortTable;
  const taken = new Set<number>();
  for (const service of services) {
    const ports: Record<number, number> = {};
    for (const containerPort of LISTENERS[service]) {
      let port = await freePort();
      while (taken.has(port)) port = await freePort();
      taken.add(port);
      ports[containerPort] = port;
    }
    table[service] = ports;
  }
  return table;
}

/** `127.0.0.1:<port>` of a service's container port. */
export function hostAddress(ports: PortTable, service: StackService, containerPort: number): string {
  const port = ports[service]?.[containerPort];
  if (port === undefined) throw new Error(`no 127.0.0.1 port for ${service}:${containerPort}`);
  return `127.0.0.1:${port}`;
}

function composeServices(): Record<string, Json> {
  return loadYaml(PATHS.compose).services as Record<string, Json>;
}

/**
 * The addresses `service`'s files may name: its own listeners as 0.0.0.0 / localhost, and every
 * other started service by its compose name.
 */
export function addressesFor(service: StackService, ports: PortTable): Record<string, string> {
  const addresses: Record<string, string> = {};
  for (const [other, table] of Object.entries(ports) as Array<[StackService, Record<number, number>]>) {
    for (const containerPort of Object.keys(table).map(Number)) {
      addresses[`${other}:${containerPort}`] = hostAddress(ports, other, containerPort);
      if (other === service) {
        addresses[`0.0.0.0:${containerPort}`] = hostAddress(ports, other, containerPort);
        addresses[`localhost:${containerPort}`] = hostAddress(ports, other, containerPort);
      }
    }
  }
  return addresses;
}

/** compose's `${VAR:-default}` interpolation, from this process's environment. */
export function interpolate(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback = '') => env[name] || fallback);
}

export interface PreparedService {
  /** compose's `command`, localized. */
  args: string[];
  /** compose's `environment`, interpolated. */
  env: Record<string, string>;
  /** Folder holding the localized config copies and the named volumes. */
  workDir: string;
}

/**
 * A compose service made runnable here: each bind-mounted FILE is localized into workDir (a mounted
 * folder is used in place), each named volume becomes a folder in workDir, and the command's
 * addresses and paths go through the same transform.
 */
export function prepareService(service: StackService, ports: PortTable, workDir: string): PreparedService {
  const spec = composeServices()[service];
  if (!spec) throw new Error(`docker-compose.yml has no service ${service}`);
  const hosts = new Set([...Object.keys(composeServices()), '0.0.0.0', 'localhost']);
  const addresses = addressesFor(service, ports);
  const mounts: Array<{ target: string; source: string }> = [];
  const copies: Array<{ from: string; to: string }> = [];
  for (const volume of (spec.volumes ?? []) as string[]) {
    const [source = '', target = ''] = volume.split(':');
    if (!source.startsWith('.')) {
      const dir = path.join(workDir, source);
      mkdirSync(dir, { recursive: true });
      mounts.push({ target, source: dir });
      continue;
    }
    const hostPath = path.resolve(REPO, source);
    if (statSync(hostPath).isDirectory()) {
      mounts.push({ target, source: hostPath });
      continue;
    }
    // A config file: localized into workDir. YAML and JSON files (Thanos's hashring) go through
    // the same transform; others (the alert-sink's server.mjs) are code and are used as shipped.
    if (!/\.(ya?ml|json)$/.test(hostPath)) {
      mounts.push({ target, source: hostPath });
      continue;
    }
    const copy = path.join(workDir, path.basename(hostPath));
    mounts.push({ target, source: copy });
    copies.push({ from: hostPath, to: copy });
  }
  const loc: Localization = { hosts, addresses, mounts };
  for (const { from, to } of copies) {
    writeFileSync(to, from.endsWith('.json') ? JSON.stringify(localizeTree(JSON.parse(readText(from)), loc)) : localizeYaml(readText(from), loc));
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries((spec.environment ?? {}) as Record<string, string>)) env[key] = interpolate(String(value));
  return { args: ((spec.command ?? []) as string[]).map((arg) => localizeString(arg, loc)), env, workDir };
}

export interface StackProgram extends Program {
  service: StackService;
  /** The folder of its localized config copies and named volumes (`<workDir>/<volume name>`). */
  workDir: string;
  /** Starts the same service again (same ports, same files, same volumes), e.g. after kill() or terminate(). */
  restart(): Promise<StackProgram>;
  /**
   * What `docker compose stop` does: SIGTERM, SIGKILL after the service's stop_grace_period (compose's
   * default 10 s), keeping workDir for restart(); stop() also removes it.
   */
  terminate(): Promise<void>;
}

export interface StackBinaries {
  otelcol: string;
  jaeger: string;
  prometheus: string;
  alertmanager: string;
}

/** The profile `distributed` needs these too (scripts/build-distributed.sh). */
export interface DistributedBinaries extends StackBinaries {
  thanos: string;
  /** An OpenSearch home, run with the `java` on PATH. */
  opensearch: string;
}

/**
 * Listeners the images set by default rather than in a file, given here as flags (ports only):
 * Prometheus's and Alertmanager's web address and Alertmanager's cluster (gossip) port, which the
 * image opens on 9094. The alert-sink takes its port from PORT/HOST, as its compose service does.
 */
function launchSpec(service: StackService, prepared: PreparedService, ports: PortTable, bins: Partial<DistributedBinaries>) {
  // A test may start one service alone: only that service's binary has to be given.
  const binary = (name: keyof DistributedBinaries): string => {
    const bin = bins[name];
    if (bin === undefined) throw new Error(`no ${name} binary given to start ${service}`);
    return bin;
  };
  switch (service) {
    case 'otel-collector':
    case 'otel-collector-2':
    case 'otel-gateway':
      return { bin: binary('otelcol'), args: prepared.args, readyUrl: `http://${hostAddress(ports, service, 13133)}/` };
    case 'jaeger':
      return { bin: binary('jaeger'), args: prepared.args, readyUrl: `http://${hostAddress(ports, service, 13133)}/status` };
    case 'prometheus':
      return {
        bin: binary('prometheus'),
        args: [...prepared.args, `--web.listen-address=${hostAddress(ports, service, 9090)}`],
        readyUrl: `http://${hostAddress(ports, service, 9090)}/-/ready`,
      };
    case 'alertmanager':
      return {
        bin: binary('alertmanager'),
        args: [...prepared.args, `--web.listen-address=${hostAddress(ports, service, 9093)}`, `--cluster.listen-address=${hostAddress(ports, service, 9094)}`],
        readyUrl: `http://${hostAddress(ports, service, 9093)}/-/ready`,
      };
    case 'alert-sink': {
      const [, script = ''] = prepared.args;
      return {
        bin: process.execPath,
        args: [script],
        env: { PORT: hostAddress(ports, service, 9099).split(':')[1]!, HOST: '127.0.0.1' },
        readyUrl: `http://${hostAddress(ports, service, 9099)}/healthz`,
      };
    }
    case 'opensearch-1':
    case 'opensearch-2':
    case 'opensearch-3':
      return openSearchLaunch(service, prepared, ports, binary('opensearch'));
    case 'jaeger-opensearch':
      return { bin: binary('jaeger'), args: prepared.args, readyUrl: `http://${hostAddress(ports, service, 13133)}/status` };
    case 'thanos-receive-1':
    case 'thanos-receive-2':
    case 'thanos-receive-3':
      return { bin: binary('thanos'), args: prepared.args, readyUrl: `http://${hostAddress(ports, service, 10909)}/-/ready` };
    case 'thanos-query':
    case 'thanos-rule':
      return { bin: binary('thanos'), args: prepared.args, readyUrl: `http://${hostAddress(ports, service, 10902)}/-/ready` };
    case 'otel-collector-distributed':
      return { bin: binary('otelcol'), args: prepared.args, readyUrl: `http://${hostAddress(ports, service, 13133)}/` };
    case 'prometheus-distributed':
      return {
        bin: binary('prometheus'),
        args: [...prepared.args, `--web.listen-address=${hostAddress(ports, service, 9090)}`],
        readyUrl: `http://${hostAddress(ports, service, 9090)}/-/ready`,
      };
  }
}

/** The uid and gid OpenSearch runs as: it refuses root, and the machines have `nobody`. */
const NOBODY = 65534;

/**
 * An OpenSearch node as the image runs it, from the jars of scripts/build-distributed.sh: the
 * image's entrypoint turns each dotted environment variable into a -E setting and
 * OPENSEARCH_JAVA_OPTS into JVM flags; its listeners (9200, 9300 by default) are given as flags, on
 * 127.0.0.1. It runs as `nobody` (setpriv keeps the process id, so stop() and kill() reach the JVM),
 * in workDir, which is handed to that user with the localized opensearch.yml and the home's logging
 * setup as its config folder.
 */
function openSearchLaunch(service: OpenSearchNode, prepared: PreparedService, ports: PortTable, openSearchHome: string) {
  const home = realpathSync(openSearchHome);
  const conf = path.join(prepared.workDir, 'config');
  mkdirSync(conf, { recursive: true });
  mkdirSync(path.join(prepared.workDir, 'logs'), { recursive: true });
  copyFileSync(path.join(prepared.workDir, 'opensearch.yml'), path.join(conf, 'opensearch.yml'));
  copyFileSync(path.join(home, 'config', 'log4j2.properties'), path.join(conf, 'log4j2.properties'));
  const handOver = (dir: string) => {
    chownSync(dir, NOBODY, NOBODY);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) handOver(path.join(dir, entry.name));
      else chownSync(path.join(dir, entry.name), NOBODY, NOBODY);
    }
  };
  handOver(prepared.workDir);
  const settings = Object.entries(prepared.env)
    .filter(([key]) => key.includes('.'))
    .map(([key, value]) => `-E${key}=${value}`);
  const jvm = (prepared.env.OPENSEARCH_JAVA_OPTS ?? '').split(/\s+/).filter(Boolean);
  return {
    bin: 'setpriv',
    args: [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      'java',
      ...jvm,
      // What bin/opensearch sets for a tar distribution on Java 17.
      '-Djava.security.manager=allow',
      '-Djava.locale.providers=SPI,COMPAT',
      `-Dopensearch.path.home=${home}`,
      `-Dopensearch.path.conf=${conf}`,
      '-Dopensearch.distribution.type=tar',
      '-cp',
      `${home}/lib/*`,
      'org.opensearch.bootstrap.OpenSearch',
      ...settings,
      '-Enetwork.host=127.0.0.1',
      `-Ehttp.port=${hostAddress(ports, service, 9200).split(':')[1]}`,
      `-Etransport.port=${hostAddress(ports, service, 9300).split(':')[1]}`,
      `-Epath.logs=${path.join(prepared.workDir, 'logs')}`,
    ],
    readyUrl: `http://${hostAddress(ports, service, 9200)}/`,
  };
}

/** A compose service's stop_grace_period in ms (compose's default: 10 s). */
export function stopGraceMs(service: StackService): number {
  const grace = composeServices()[service]?.stop_grace_period as string | undefined;
  return grace === undefined ? 10_000 : durationSeconds(grace) * 1000;
}

export interface StartServiceOptions {
  service: StackService;
  ports: PortTable;
  /** The binaries; starting one service alone needs only its own. */
  bins: Partial<DistributedBinaries>;
  /** Extra environment (e.g. FOOTPRINT_SAMPLE_PERCENT), over compose's. */
  env?: Record<string, string>;
}

export async function startService(opts: StartServiceOptions): Promise<StackProgram> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), `footprint-stack-${opts.service}-`));
  const prepared = prepareService(opts.service, opts.ports, workDir);
  const launch = launchSpec(opts.service, prepared, opts.ports, opts.bins);
  const start = async (): Promise<StackProgram> => {
    const program = await startProgram({
      name: opts.service,
      bin: launch.bin,
      args: launch.args,
      env: { ...prepared.env, ...('env' in launch ? launch.env : {}), ...opts.env },
      cwd: workDir,
      readyUrl: launch.readyUrl,
      // Three OpenSearch nodes starting together on 2 busy cores take minutes; the rest starts in seconds.
      timeoutMs: opts.service.startsWith('opensearch-') ? 300_000 : 60_000,
    });
    return {
      ...program,
      service: opts.service,
      workDir,
      restart: start,
      terminate: () => program.stop(stopGraceMs(opts.service)),
      stop: async () => {
        await program.stop();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  };
  return start();
}
