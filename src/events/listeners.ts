/**
 * Listener registry behind every runner's `on(...)`: exact type, domain wildcard ('footprint.call.*')
 * or '*'. A throwing listener is isolated: the error is reported once per listener through a Node
 * warning and counted, and the run goes on.
 */
import type { EventType } from './catalog.js';
import type { EventPattern, Listener, TypedEvent, Unsubscribe } from './envelope.js';

export class ListenerSet {
  private readonly exact = new Map<string, Set<Listener>>();
  private readonly domains = new Map<string, Set<Listener>>();
  private readonly all = new Set<Listener>();
  private readonly reported = new WeakSet<Listener>();
  /** How many listener calls threw (for tests and health checks). */
  failures = 0;

  on<K extends EventType>(pattern: K, listener: Listener<K>): Unsubscribe;
  on(pattern: EventPattern, listener: Listener): Unsubscribe;
  on(pattern: EventPattern, listener: Listener<any>): Unsubscribe {
    const bucket = this.bucketFor(pattern);
    bucket.add(listener);
    return () => {
      bucket.delete(listener);
    };
  }

  get size(): number {
    let n = this.all.size;
    for (const s of this.exact.values()) n += s.size;
    for (const s of this.domains.values()) n += s.size;
    return n;
  }

  /** Whether a listener of this set hears events of `type` (its exact type, its domain, or '*'). */
  hears(type: EventType): boolean {
    if (this.all.size > 0 || (this.exact.get(type)?.size ?? 0) > 0) return true;
    return (this.domains.get(type.slice(0, type.lastIndexOf('.')))?.size ?? 0) > 0;
  }

  dispatch(event: TypedEvent): void {
    if (this.size === 0) return;
    this.callEach(this.exact.get(event.type), event);
    const domain = event.type.slice(0, event.type.lastIndexOf('.'));
    this.callEach(this.domains.get(domain), event);
    this.callEach(this.all, event);
  }

  private bucketFor(pattern: EventPattern): Set<Listener> {
    if (pattern === '*') return this.all;
    if (pattern.endsWith('.*')) return getOrCreate(this.domains, pattern.slice(0, -2));
    return getOrCreate(this.exact, pattern);
  }

  private callEach(listeners: Set<Listener> | undefined, event: TypedEvent): void {
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        this.failures++;
        if (!this.reported.has(listener)) {
          this.reported.add(listener);
          process.emitWarning(
            `footprint-otel: a listener for ${event.type} threw and was isolated: ${describe(error)}`,
            { code: 'FOOTPRINT_LISTENER_ERROR' },
          );
        }
      }
    }
  }
}

function getOrCreate(map: Map<string, Set<Listener>>, key: string): Set<Listener> {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
