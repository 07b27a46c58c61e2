// The ONE transform between the shipped stack files (deploy/**, docker-compose.yml) and what the
// real-stack tests run on 127.0.0.1. It changes two things and nothing else:
//   - addresses: a `host:port` string (alone or inside a URL, `--flag=` values included) or a
//     `{ host, port }` mapping whose host is a compose service name, 0.0.0.0 or localhost becomes the
//     127.0.0.1 address the test gave that endpoint. An address the test gave nothing for is an
//     error: a new endpoint in a shipped file must get a port here, never keep pointing at a host
//     that does not exist on this machine;
//   - paths: a string (or `--flag=` value) under a container mount target of docker-compose.yml
//     (`./deploy/prometheus/rules:/etc/prometheus/rules`) becomes the host path that is mounted there.
// Everything else (keys, policies, intervals, routing) is the shipped file, byte for byte in meaning.
// test/stack/localize.test.ts proves that claim on every shipped file.
import YAML from 'yaml';

export interface Localization {
  /** Host names that mean "a service of the compose network" (compose service names, 0.0.0.0, localhost). */
  hosts: ReadonlySet<string>;
  /** `host:port` as written in the shipped file -> `127.0.0.1:port` to use instead. */
  addresses: Readonly<Record<string, string>>;
  /** Container path -> host path, longest target first wins. */
  mounts: ReadonlyArray<{ target: string; source: string }>;
}

export class UnmappedAddressError extends Error {
  constructor(readonly address: string) {
    super(`the shipped file names ${address}, which the test gave no 127.0.0.1 address`);
    this.name = 'UnmappedAddressError';
  }
}

const ADDRESS = /^(?<scheme>[a-z][a-z0-9+.-]*:\/\/)?(?<host>[A-Za-z0-9_.-]+):(?<port>\d+)(?<rest>[/?#].*)?$/;

function mapAddress(hostPort: string, loc: Localization): string {
  const to = loc.addresses[hostPort];
  if (to === undefined) throw new UnmappedAddressError(hostPort);
  return to;
}

function mapPath(value: string, loc: Localization): string | undefined {
  const mount = [...loc.mounts]
    .sort((a, b) => b.target.length - a.target.length)
    .find((m) => value === m.target || value.startsWith(m.target.endsWith('/') ? m.target : `${m.target}/`));
  return mount ? mount.source + value.slice(mount.target.length) : undefined;
}

/** One string value: an address, a mounted path, `--flag=<either>`, or left alone. */
export function localizeString(value: string, loc: Localization): string {
  const flag = /^(--?[A-Za-z0-9._-]+=)(.*)$/s.exec(value);
  if (flag) return flag[1]! + localizeString(flag[2]!, loc);
  const address = ADDRESS.exec(value);
  if (address?.groups && loc.hosts.has(address.groups.host!)) {
    const { scheme = '', host, port, rest = '' } = address.groups;
    return scheme + mapAddress(`${host}:${port}`, loc) + rest;
  }
  return mapPath(value, loc) ?? value;
}

/** A parsed config tree with every address and mounted path localized (a new tree; the input is untouched). */
export function localizeTree<T>(tree: T, loc: Localization): T {
  if (typeof tree === 'string') return localizeString(tree, loc) as T;
  if (Array.isArray(tree)) return tree.map((item) => localizeTree(item, loc)) as T;
  if (tree === null || typeof tree !== 'object') return tree;
  const entries = Object.entries(tree as Record<string, unknown>);
  const record = tree as Record<string, unknown>;
  const hostPort = typeof record.host === 'string' && loc.hosts.has(record.host) && typeof record.port === 'number';
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) out[key] = localizeTree(value, loc);
  if (hostPort) {
    const [host, port] = mapAddress(`${record.host}:${record.port}`, loc).split(':');
    out.host = host;
    out.port = Number(port);
  }
  return out as T;
}

/**
 * A shipped YAML file's text -> the localized YAML text (comments dropped; values as above). Written
 * by YAML 1.1's rules, which Go's readers keep: a string YAML 1.1 would read as something else
 * (Jaeger's date layout "2006-01-02", a timestamp there; "on", a boolean) is quoted, and every other
 * string stays plain, so a collector's `${env:…}` value is still typed from what it expands to.
 */
export function localizeYaml(text: string, loc: Localization): string {
  return YAML.stringify(localizeTree(YAML.parse(text), loc), { version: '1.1' });
}
