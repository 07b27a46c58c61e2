/**
 * Runs one tool call: validates its arguments against the tool's schema (tools/schema.ts), runs it within its
 * deadline, and turns invalid calls, unknown tools, throwing and overdue tools into error results the
 * model sees (never a crash). Pause requests are the stage's business (tools/pauseLatch.ts).
 */
import { ownTextOf, type EventError, type EventPayloads, type InputProducer } from '../../events/index.js';
import type { ToolCall } from '../providers/index.js';
import { describeError, errorType, FIXED_ERROR_TYPES, whileStartingIn } from '../run/index.js';
import { toToolText, type CheckedSchema, type Tool, type ToolContext } from '../tools/index.js';

/** A call's status as tool_end reports it (events/catalog.ts). */
export type ToolStatus = EventPayloads['footprint.stream.tool_end']['status'];

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
  const done = (status: ToolStatus, text: string, error?: ToolOutcome['error']): ToolOutcome => ({
    call,
    status,
    text,
    error,
    durationMs: performance.now() - started,
  });
  if (!compiled) {
    // the name is the model's: bounded like any text the model gets back
    return done('unknown_tool', toToolText(`Unknown tool "${call.name}". Available tools: ${available.join(', ') || 'none'}.`), {
      type: FIXED_ERROR_TYPES.unknownTool,
      message: toToolText(`unknown tool ${call.name}`),
      ownText: true,
    });
  }
  // The tool gets its own copy of the arguments (or what the schema library made of it): the call is
  // also the conversation's record of what the model asked (the next request sends it back) and the
  // tool_start event's payload.
  const verdict = await compiled.schema.validate(structuredClone(call.args));
  if (!verdict.ok) {
    const error: EventError = { type: FIXED_ERROR_TYPES.invalidArgs, message: verdict.message };
    if (verdict.ownText) error.ownText = true;
    return done('invalid_args', `Invalid arguments for tool "${call.name}": ${verdict.message}. Fix them and call again.`, error);
  }
  const timeoutMs = compiled.tool.timeoutMs ?? run.timeoutMs;
  const stop = new CallStop(run.runSignal, timeoutMs);
  try {
    const context: ToolContext = { toolCallId: call.id, agentId: run.agentId, signal: stop.signal, pause: run.pause };
    const work = new Promise<unknown>((resolve) => resolve(whileStartingIn(run.producer, () => compiled.tool.execute(verdict.value, context))));
    const value = await stop.race(work);
    return done('ok', toToolText(value));
  } catch (error) {
    if (stop.timedOut) {
      return done('timeout', `Tool "${call.name}" did not finish within ${timeoutMs} ms and was stopped.`, {
        type: FIXED_ERROR_TYPES.toolTimeout,
        message: `no result within ${timeoutMs} ms`,
      });
    }
    if (run.runSignal?.aborted) return cancelledOutcome(call, performance.now() - started);
    // an error message can be as large as a result: bounded the same way
    const detail = describeError(error);
    return done('error', toToolText(`Tool "${call.name}" failed: ${detail}`), {
      type: errorType(error),
      message: toToolText(detail),
      ...ownTextOf(error),
    });
  } finally {
    stop.release();
  }
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
 * One call's stop: its own AbortController, aborted by the run's signal or by the deadline, and
 * the race that ends the call's wait the moment it aborts. release() clears the timer and the
 * listener, so a finished call leaves nothing behind.
 */
class CallStop {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onRunAbort = () => this.controller.abort(this.runSignal?.reason);
  timedOut = false;

  constructor(
    private readonly runSignal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException(`no result within ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    if (runSignal?.aborted) this.onRunAbort();
    else runSignal?.addEventListener('abort', this.onRunAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The work's result, or a rejection as soon as the call's signal aborts. */
  race<T>(work: Promise<T>): Promise<T> {
    const signal = this.controller.signal;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  release(): void {
    clearTimeout(this.timer);
    this.runSignal?.removeEventListener('abort', this.onRunAbort);
  }
}
