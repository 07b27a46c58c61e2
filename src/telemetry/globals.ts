/**
 * Which OpenTelemetry API slots (tracer provider, meter provider, context manager, propagator) are
 * free before NodeSDK registers into them, and undoing exactly those on shutdown: NodeSDK registers
 * but never unregisters, and an app that runs its own SDK keeps what it registered. The slots live in
 * the API's process-wide registry (the object every copy of @opentelemetry/api 1.x shares under
 * Symbol.for('opentelemetry.js.api.1')); reading it is the only way to ask "is this slot taken?".
 */
import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';

const SLOTS = ['trace', 'metrics', 'context', 'propagation'] as const;
export type Slot = (typeof SLOTS)[number];

const REGISTRY = Symbol.for('opentelemetry.js.api.1');

export function takenSlots(): Slot[] {
  const registry = (globalThis as Record<symbol, Partial<Record<Slot, unknown>> | undefined>)[REGISTRY];
  return SLOTS.filter((slot) => registry?.[slot] !== undefined);
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
};

export function releaseSlots(slots: readonly Slot[]): void {
  for (const slot of slots) DISABLE[slot]();
}
