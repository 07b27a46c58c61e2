// Jaeger keeps what it shows: the real Jaeger v2 on the shipped Badger store (deploy/jaeger/config.yaml
// through the one transform of test/support/stack/localize.ts, its data folder where compose mounts the
// volume jaeger-data) is stopped after a demo load, once with SIGTERM and once with SIGKILL (a crash),
// and started again from the same data folder. Every tripped trace it held must be found again, whole
// (the same spans), and traces sent after the restart are stored. Jaeger runs alone here and the demo
// sends its spans straight to Jaeger's OTLP receiver (through the tap that keeps the ledger), so every
// trace is stored, not only the tail sampler's share: the first load, 1,000 demo runs, gives the
// store's size on disk for 1,000 runs kept whole (du of the data folder), the number docs/stack.md
// quotes as the upper bound (the compose stack keeps every trip, error and escalation and 25% of the rest).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackends, waitFor } from '../support/backends.js';
import { jaegerClient, runDemo, type DemoRun, type JaegerClient } from '../support/stack/clients.js';
import { startOtlpTap, TAP_PROTOCOL_ENV, type OtlpTap, type TappedTrace } from '../support/stack/otlp-tap.js';
import { allocatePorts, hostAddress, startService, type StackProgram } from '../support/stack/stack.js';

const FIRST = { service: 'footprint-restart-first', runs: 1000 };
const SECOND = { service: 'footprint-restart-second', runs: 200 };
const AFTER_CRASH = { service: 'footprint-restart-after', runs: 100 };
const TRIP_KINDS = ['ping_pong', 'rejected_cap'];

/** Disk use of a folder in KiB (du -sk: allocated blocks, so Badger's sparse preallocated files count as written). */
function diskKiB(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

const isTripped = (t: TappedTrace) => t.spans.some((s) => s.parentSpanId === '' && s.attributes['footprint.trip.kinds'] !== undefined);

describeWithBackends('Jaeger on Badger: traces outlive a restart (SIGTERM) and a crash (SIGKILL)', ['jaeger'], (bins) => {
  let program: StackProgram;
  let jaeger: JaegerClient;
  let tap: OtlpTap;
  const loads: Record<string, DemoRun> = {};
  let dataDir = '';
  let emptyKiB = 0;

  /** Tripped trace id -> span count, as Jaeger's search finds them for `service` (by each trip kind). */
  const trippedInJaeger = async (service: string): Promise<Record<string, number>> => {
    const found: Record<string, number> = {};
    for (const kind of TRIP_KINDS) {
      for (const trace of await jaeger.search(service, { 'footprint.trip.kinds': kind })) found[trace.traceID] = trace.spans.length;
    }
    return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
  };
  /** What the app sent for `service`'s tripped runs: trace id -> span count. */
  const trippedSent = (service: string): Record<string, number> =>
    Object.fromEntries(
      [...tap.traces().values()]
        .filter((t) => t.serviceName === service && isTripped(t))
        .map((t) => [t.traceId, t.spans.length] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  /** Runs a load and waits until Jaeger holds every tripped trace of it whole. */
  const load = async (spec: { service: string; runs: number }, seed: number) => {
    loads[spec.service] = await runDemo({
      args: ['--runs', String(spec.runs), '--concurrency', '8', '--seed', String(seed)],
      // Jaeger takes traces only: the demo's metrics stay home.
      env: { ...TAP_PROTOCOL_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: tap.url, OTEL_SERVICE_NAME: spec.service, OTEL_METRICS_EXPORTER: 'none' },
    });
    const want = trippedSent(spec.service);
    await waitFor(async () => JSON.stringify(await trippedInJaeger(spec.service)) === JSON.stringify(want), {
      what: `every tripped trace of ${spec.service} whole in Jaeger`,
      timeoutMs: 60_000,
      intervalMs: 2_000,
    });
    return want;
  };
  const restartJaeger = async (how: 'terminate' | 'kill') => {
    await program[how]();
    expect(program.exitStatus(), how).toBe(how === 'terminate' ? 0 : 'SIGKILL');
    program = await program.restart();
  };

  let first: Record<string, number>;
  let second: Record<string, number>;
  let afterTerminate: Record<string, number>;
  let storeKiB = 0;

  beforeAll(async () => {
    // Prometheus gets a port only because the shipped file names it (the Monitor tab's metrics backend).
    const ports = await allocatePorts(['jaeger', 'prometheus']);
    program = await startService({ service: 'jaeger', ports, bins: { jaeger: bins.jaeger } });
    jaeger = jaegerClient(`http://${hostAddress(ports, 'jaeger', 16686)}`);
    dataDir = path.join(program.workDir, 'jaeger-data');
    emptyKiB = diskKiB(dataDir);
    tap = await startOtlpTap(() => `http://${hostAddress(ports, 'jaeger', 4318)}`);
    first = await load(FIRST, 21);
    // SIGTERM: Jaeger closes the store (its memtables flushed to tables), then starts on the same folder.
    await restartJaeger('terminate');
    storeKiB = diskKiB(dataDir);
    afterTerminate = await trippedInJaeger(FIRST.service);
  }, 600_000);

  afterAll(async () => {
    await tap?.close();
    await program?.stop();
  });

  it('stores its data in the compose volume folder, and prints the size of 1,000 demo runs', () => {
    expect(loads[FIRST.service]!.exitCode).toBe(0);
    expect(loads[FIRST.service]!.summary.runs).toBe(FIRST.runs);
    const mine = [...tap.traces().values()].filter((t) => t.serviceName === FIRST.service);
    expect(mine.length).toBe(FIRST.runs);
    const spans = mine.reduce((n, t) => n + t.spans.length, 0);
    console.info(
      `[jaeger-restart] Badger store (du -sk ${dataDir}): empty ${emptyKiB} KiB, after ${FIRST.runs} demo runs (${spans} spans, every trace kept) ` +
        `and a SIGTERM restart ${storeKiB} KiB: ${((storeKiB - emptyKiB) / 1024).toFixed(1)} MiB per ${FIRST.runs} runs`,
    );
    expect(storeKiB).toBeGreaterThan(emptyKiB);
  });

  it('after SIGTERM and a restart, finds every tripped trace it held, each whole', () => {
    // Held before: every tripped run the demo sent, whole (load() waited for exactly that).
    expect(first).toEqual(trippedSent(FIRST.service));
    expect(Object.keys(first).length).toBeGreaterThanOrEqual(loads[FIRST.service]!.summary.trips.ping_pong!);
    expect(afterTerminate).toEqual(first);
  });

  it('after SIGKILL and a restart, finds every tripped trace of both loads whole, and stores the traces sent after', async () => {
    second = await load(SECOND, 22);
    expect(Object.keys(second).length).toBeGreaterThanOrEqual(1);
    await restartJaeger('kill');
    expect(await trippedInJaeger(FIRST.service)).toEqual(first);
    expect(await trippedInJaeger(SECOND.service)).toEqual(second);
    const after = await load(AFTER_CRASH, 23);
    expect(Object.keys(after).length).toBeGreaterThanOrEqual(1);
    expect(await trippedInJaeger(AFTER_CRASH.service)).toEqual(after);
  }, 300_000);
});
