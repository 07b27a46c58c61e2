/**
 * Which OpenTelemetry API slots (tracer provider, meter provider, context manager, propagator, and
 * the logs API's logger provider) are free before NodeSDK registers into them, and undoing exactly
 * those on shutdown: NodeSDK registers but never unregisters, and an app that runs its own SDK keeps
 * what it registered. The slots live in the API's process-wide registry (the object every copy of
 * @opentelemetry/api 1.x shares under Symbol.for('opentelemetry.js.api.1'); the logs API's own global
 * under Symbol.for('io.opentelemetry.js.api.logs')); reading them is the only way to ask "is this slot taken?".
 */
import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';

const SLOTS = ['trace', 'metrics', 'context', 'propagation', 'logs'] as const;
export type Slot = (typeof SLOTS)[number];

const REGISTRY = Symbol.for('opentelemetry.js.api.1');
const LOGS_GLOBAL = Symbol.for('io.opentelemetry.js.api.logs');

export function takenSlots(): Slot[] {
  const global = globalThis as Record<symbol, unknown>;
  const registry = global[REGISTRY] as Partial<Record<Slot, unknown>> | undefined;
  return SLOTS.filter((slot) => (slot === 'logs' ? global[LOGS_GLOBAL] : registry?.[slot]) !== undefined);
}

/**
 * Runs the registration and returns the slots it filled (free before, taken after). Warns once when
 * another SDK already holds slots: those stay as they are (the API refuses a second registration).
 */
export function registerIntoFreeSlots(register: () => void): Slot[] {
  const before = takenSlots();
  if (before.length > 0) {
    diag.warn(`footprint-otel: another OpenTelemetry SDK is already registered (${before.join(', ')}); startTelemetry leaves those in place`);
  }
  register();
  const after = takenSlots();
  return SLOTS.filter((slot) => !before.includes(slot) && after.includes(slot));
}

const DISABLE: Record<Slot, () => void> = {
  trace: () => trace.disable(),
  metrics: () => metrics.disable(),
  context: () => context.disable(),
  propagation: () => propagation.disable(),
  logs: () => logs.disable(),
};

export function releaseSlots(slots: readonly Slot[]): void {
  for (const slot of slots) DISABLE[slot]();
}
