/**
 * Making a span active for code the bridge does not call. footprintjs runs a stage body right after
 * its onStageStart hook, in the same tick, and a model call right after its llm_start emit; attaching
 * a context there (the context manager's experimental attach(), enterWith on Node < 25.9) puts the
 * span under everything the body awaits: provider HTTP spans, a nested runner, user spans.
 *
 * Only the API is used: the global context manager is read through the API's internal getter (the
 * API has no public one) and duck-typed; test/otel/placement/activation.test.ts fails the day an API
 * release renames or drops that getter. Without an attach-capable manager (none registered, or
 * another kind) activation is off and every span still gets its parent explicitly.
 */
import { context, type Context } from '@opentelemetry/api';

export type Activate = (ctx: Context) => void;

interface Attachable {
  attach(ctx: Context): unknown;
}

export function activator(): Activate | undefined {
  const getter = (context as unknown as { _getContextManager?: () => unknown })._getContextManager;
  const manager = typeof getter === 'function' ? getter.call(context) : undefined;
  if (!manager || typeof (manager as Partial<Attachable>).attach !== 'function') return undefined;
  const attachable = manager as Attachable;
  // The returned token is dropped on purpose: the run wrapper restores the caller's context, and
  // keeping tokens would grow without bound over a long run.
  return (ctx) => {
    attachable.attach(ctx);
  };
}
