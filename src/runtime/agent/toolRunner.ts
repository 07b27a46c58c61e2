/**
 * Runs one tool call: validates its arguments against the tool's schema (tools/schema.ts), runs it within its
 * deadline, and turns invalid calls (arguments that are no JSON object or that the schema refuses),
 * unknown tools, throwing and overdue tools into error results the model sees (never a crash). Pause requests are the stage's business (tools/pauseLatch.ts).
 */
import { ownTextOf, type EventError, type EventPayloads, type InputProducer } from '../../events/index.js';
import type { ToolCall } from '../providers/index.js';
import { copyArgs, describeError, errorType, FIXED_ERROR_TYPES, isThenable, UNCOPYABLE_ARGS, whileStartingIn } from '../run/index.js';
import { toToolText, type CheckedSchema, type Tool, type ToolContext } from '../tools/index.js';

/** A call's status as tool_end reports it (events/catalog.ts). */
export type ToolStatus = EventPayloads['footprint.call.tool_end']['status'];

export interface ToolOutcome {
  call: ToolCall;
  status: ToolStatus;
  text: string;
  error?: EventError;
  durationMs: number;
}

/** What a call runs with: the agent, the run's signal, the agent's default deadline and ctx.pause. */
export interface ToolRun {
  agentId: string;
  /** The call as a producer (its run's id with it): a runner run the tool starts has its input from here. */
  producer: InputProducer;
  /** The run's AbortSignal, if the caller passed one. */
  runSignal?: AbortSignal;
  /** The deadline of a tool that sets no `timeoutMs` of its own. */
  timeoutMs: number;
  pause(question: string): Promise<unknown>;
}

/** A tool with its schema checked: what the model is sent and the validator of its calls. */
export interface CompiledTool {
  tool: Tool;
  schema: CheckedSchema;
}

/**
 * Runs one tool call to an outcome. The tool gets a signal of its own that aborts when the run is
 * cancelled or the call passes its deadline; a tool that ignores it is left behind either way (its
 * promise no longer holds the run). A cancelled call is `cancelled`, not a failure of the tool.
 */
export async function runToolCall(call: ToolCall, compiled: CompiledTool | undefined, available: string[], run: ToolRun): Promise<ToolOutcome> {
  const started = performance.now();
  if (!compiled) {
    // the name is the model's: bounded like any text the model gets back
    return outcome(call, started, 'unknown_tool', toToolText(`Unknown tool "${call.name}". Available tools: ${available.join(', ') || 'none'}.`), {
      type: FIXED_ERROR_TYPES.unknownTool,
      message: toToolText(`unknown tool ${call.name}`),
      ownText: true,
    });
  }
  // Arguments the model wrote that are no JSON object (providers/toolArguments.ts): answered as
  // arguments its schema refuses are, never run.
  if (call.argsText !== undefined) return unparsedArguments(call, started);
  // The tool gets its own copy of the arguments (or what the schema library made of it): the call is
  // also the conversation's record of what the model asked (the next request sends it back) and the
  // tool_start event's payload.
  let args: Record<string, unknown>;
  try {
    args = copyArgs(call.args);
  } catch {
    // structuredClone refuses a function or a symbol (a custom provider's), and overflows the stack on
    // arguments nested thousands deep (valid JSON a model may write): refused as invalid, never a failed run.
    return outcome(call, started, 'invalid_args', `Invalid arguments for tool "${call.name}": ${UNCOPYABLE}. Fix them and call again.`, {
      type: FIXED_ERROR_TYPES.invalidArgs,
      message: UNCOPYABLE,
      ownText: true,
    });
  }
  const timeoutMs = compiled.tool.timeoutMs ?? run.timeoutMs;
  const stop = new CallStop(run.runSignal, timeoutMs);
  try {
    // The check is within the call's deadline and the run's cancellation too: a Standard Schema is
    // the app's own code, as `execute` is, and its validate() may never settle.
    const checking = stop.run(() => compiled.schema.validate(args));
    const verdict = checking instanceof Promise ? await checking : checking;
    if (!verdict.ok) {
      const error: EventError = { type: FIXED_ERROR_TYPES.invalidArgs, message: verdict.message };
      if (verdict.ownText) error.ownText = true;
      return outcome(call, started, 'invalid_args', `Invalid arguments for tool "${call.name}": ${verdict.message}. Fix them and call again.`, error);
    }
    const context = new CallContext(call.id, run.agentId, stop, run.pause);
    const running = stop.run(() => whileStartingIn(run.producer, () => compiled.tool.execute(verdict.value, context)));
    return outcome(call, started, 'ok', toToolText(running instanceof Promise ? await running : running));
  } catch (error) {
    if (stop.timedOut) {
      return outcome(call, started, 'timeout', `Tool "${call.name}" did not finish within ${timeoutMs} ms and was stopped.`, {
        type: FIXED_ERROR_TYPES.toolTimeout,
        message: `no result within ${timeoutMs} ms`,
      });
    }
    if (run.runSignal?.aborted) return cancelledOutcome(call, performance.now() - started);
    // an error message can be as large as a result: bounded the same way
    const detail = describeError(error);
    return outcome(call, started, 'error', toToolText(`Tool "${call.name}" failed: ${detail}`), {
      type: errorType(error),
      message: toToolText(detail),
      ...ownTextOf(error),
    });
  } finally {
    stop.release();
  }
}

/** Why a call's arguments that copyArgs could not copy are refused (the runtime's wording: no content). */
const UNCOPYABLE = `they cannot be copied (${UNCOPYABLE_ARGS})`;

/** The outcome of a call whose arguments are no JSON object (ToolCall.argsText): never run, for any tool (read_skill too). */
export function unparsedArguments(call: ToolCall, started: number): ToolOutcome {
  return outcome(call, started, 'invalid_args', `Invalid arguments for tool "${call.name}": they are not a JSON object. Fix them and call again.`, {
    type: FIXED_ERROR_TYPES.invalidArgs,
    message: 'the arguments are not a JSON object',
    ownText: true,
  });
}

/** A run call's outcome, timed from `started`. */
function outcome(call: ToolCall, started: number, status: ToolStatus, text: string, error?: ToolOutcome['error']): ToolOutcome {
  return { call, status, text, error, durationMs: performance.now() - started };
}

/** The outcome of a call the run's cancellation ended (or kept from starting). */
export function cancelledOutcome(call: ToolCall, durationMs: number): ToolOutcome {
  return {
    call,
    status: 'cancelled',
    text: `Tool "${call.name}" was cancelled with the run.`,
    error: { type: FIXED_ERROR_TYPES.cancelled, message: 'the run was cancelled' },
    durationMs,
  };
}

/**
 * What a tool's `execute` gets as `ctx`. The signal is read on demand (CallStop.signal): a tool that
 * never reads it costs no AbortController. A class with the getter on its prototype, not an object
 * literal with a getter: V8 builds such a literal in its runtime as a dictionary-mode object, and
 * what the getter's closure reached (the call, its whole run) then outlived young-generation
 * collections and was promoted, to die in the old generation. Measured: 16.8% of what a reference
 * turn allocates was promoted with the literal, 2.9% with this class; bench:peer's traced and
 * untraced turns 24-36% cheaper (docs/benchmarks.md, round 5, fifth session).
 */
class CallContext implements ToolContext {
  readonly #stop: CallStop;

  constructor(
    readonly toolCallId: string,
    readonly agentId: string,
    stop: CallStop,
    readonly pause: ToolRun['pause'],
  ) {
    this.#stop = stop;
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }
}

/** The reasons a tool's signal aborted with at its deadline (isToolDeadline). */
const DEADLINE_REASONS = new WeakSet<object>();

/**
 * True for the reason a tool's signal (ToolContext.signal) aborts with when the call passed its
 * deadline, false for a cancelled run's (whatever the caller aborted with, AbortSignal.timeout's
 * TimeoutError included): a tool that reports the abort (an MCP call's span) names it as the
 * runtime does, `timeout` or `cancelled`.
 */
export function isToolDeadline(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && DEADLINE_REASONS.has(reason);
}

/**
 * One call's stop: aborted by the run's signal or by the deadline, and the race that ends the call's
 * wait the moment it stops. The tool's AbortController is made when the tool first reads its signal
 * (aborted at once if the call has already stopped): most tools never read it, and an
 * AbortController with its signal costs about 2 µs to make (docs/benchmarks.md). release() clears
 * the timer and the listener, so a finished call leaves nothing behind.
 */
class CallStop {
  private controller?: AbortController;
  /** Why the call stopped, once it has. */
  private stopped?: { reason: unknown };
  private rejectWait?: (reason: unknown) => void;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onRunAbort = () => this.stop(this.runSignal?.reason);
  timedOut = false;

  constructor(
    private readonly runSignal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      const reason = new DOMException(`no result within ${timeoutMs} ms`, 'TimeoutError');
      DEADLINE_REASONS.add(reason);
      this.stop(reason);
    }, timeoutMs);
    if (runSignal?.aborted) this.onRunAbort();
    else runSignal?.addEventListener('abort', this.onRunAbort, { once: true });
  }

  /** The tool's signal: aborted with the run's, or at the deadline. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.stopped.reason);
    }
    return this.controller.signal;
  }

  /**
   * What `start()` gives (started at once, a throw of it thrown): a value it returns at once as it is,
   * with no promise (run/thenable.ts); a thenable's outcome, or a rejection as soon as the call stops,
   * as a promise (one, and the one the work's derives). A rejection at once if the call has already stopped.
   */
  run<T>(start: () => T | PromiseLike<T>): T | Promise<T> {
    const work = start();
    if (this.stopped) return Promise.reject(this.stopped.reason);
    if (!isThenable(work)) return work;
    return new Promise<T>((resolve, reject) => {
      this.rejectWait = reject;
      Promise.resolve(work).then(resolve, reject);
    });
  }

  private stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = { reason };
    this.rejectWait?.(reason);
    this.controller?.abort(reason);
  }

  release(): void {
    this.rejectWait = undefined;
    clearTimeout(this.timer);
    this.runSignal?.removeEventListener('abort', this.onRunAbort);
  }
}
