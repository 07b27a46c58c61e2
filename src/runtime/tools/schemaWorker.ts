/**
 * Checks arguments against a JSON Schema on a worker thread, each check within a deadline. A JSON
 * Schema check can take as long as its author and its data make it: a `pattern` such as '^(a+)+$'
 * backtracks exponentially on 40 'a's and a '!', `uniqueItems` compares objects pairwise (20,000 of them
 * took 8 s), and a schema that refers to itself recurses until the stack overflows. On the main thread
 * any of these stops every run of the process; here a check past its deadline ends the worker
 * (terminate() interrupts a running regular expression within milliseconds), the check is reported
 * as not done, and the checks queued behind it go on in a new worker.
 *
 * Why a worker and not a linear-time regular-expression engine: only some of the slow cases are
 * regular expressions, and a different engine would refuse lookarounds and back references that
 * schemas use. The cost is a message each way, about 30 µs a check, next to a model call.
 *
 * The worker keeps the validators it compiled, each on an Ajv instance of its own (a schema's `$id`
 * never meets another's), keyed by the schema's text and dialect, the least recently used dropped past
 * MAX_COMPILED: memory stays bounded however many agents are built. It is started at the first check,
 * and keeps the process alive only while a check is pending.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The JSON Schema dialects a tool schema may declare (its `$schema`), each checked by its own Ajv. */
export type JsonSchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/** How long one check may take on the worker before it is abandoned. */
export const SCHEMA_CHECK_DEADLINE_MS = 1_000;
/** Validators the worker keeps compiled. */
const MAX_COMPILED = 256;

/** `paths`: the place in the data (a JSON Pointer) of each error the message names. */
export type WorkerVerdict = { ok: true } | { ok: false; message: string; unchecked?: true; paths?: string[] };

interface Pending {
  message: { id: number; dialect: JsonSchemaDialect; text: string; data: unknown };
  resolve(verdict: WorkerVerdict): void;
}

/** Runs in the worker (CommonJS, evaluated from this text: the same in src/ under a test runner and in dist/). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const classes = {};
for (const [dialect, path] of Object.entries(workerData.modules)) classes[dialect] = require(path).default;
const compiled = new Map();
parentPort.postMessage({ ready: true });
function validatorOf(dialect, text) {
  const key = dialect + '\\n' + text;
  let entry = compiled.get(key);
  if (entry) {
    compiled.delete(key);
  } else {
    const ajv = new classes[dialect](workerData.options);
    entry = { ajv, validate: ajv.compile(JSON.parse(text)) };
    if (compiled.size >= workerData.maxCompiled) compiled.delete(compiled.keys().next().value);
  }
  compiled.set(key, entry);
  return entry;
}
parentPort.on('message', ({ id, dialect, text, data }) => {
  let reply;
  try {
    const { ajv, validate } = validatorOf(dialect, text);
    reply = validate(data) ? { id, ok: true } : { id, ok: false, message: ajv.errorsText(validate.errors, { dataVar: 'args' }), paths: validate.errors.map((e) => e.instancePath) };
  } catch (error) {
    const stack = error instanceof RangeError && /call stack/i.test(error.message);
    reply = { id, ok: false, unchecked: true, message: stack ? 'the schema refers to itself without end (' + error.message + ')' : String(error && error.message || error) };
  }
  parentPort.postMessage(reply);
});
`;

export class SchemaWorker {
  private worker?: Worker;
  private nextId = 0;
  /** Checks sent and not answered, in the order the worker takes them. */
  private readonly pending = new Map<number, Pending>();
  /** The deadline of the check the worker is on (the first pending one), once the worker is ready. */
  private deadline?: ReturnType<typeof setTimeout>;
  /** The worker has loaded its validators (its start does not count against a check's deadline). */
  private ready = false;

  constructor(
    private readonly modules: Record<JsonSchemaDialect, string>,
    private readonly options: Record<string, unknown>,
    private readonly deadlineMs: number,
  ) {}

  /** The verdict on `data`; never rejects (a worker that cannot start, or a check past its deadline, is a verdict too). */
  check(dialect: JsonSchemaDialect, text: string, data: unknown): Promise<WorkerVerdict> {
    return new Promise((resolve) => {
      const message = { id: this.nextId++, dialect, text, data };
      let worker: Worker;
      try {
        worker = this.running();
      } catch (error) {
        return resolve({ ok: false, unchecked: true, message: `the schema worker could not start: ${(error as Error).message}` });
      }
      this.pending.set(message.id, { message, resolve });
      worker.ref();
      worker.postMessage(message);
      if (this.pending.size === 1) this.armDeadline();
    });
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { modules: this.modules, options: this.options, maxCompiled: MAX_COMPILED } });
    this.ready = false;
    worker.on('message', (reply: (WorkerVerdict & { id: number }) | { ready: true }) => {
      if ('id' in reply) return this.answered(reply);
      this.ready = true;
      if (this.pending.size > 0) this.armDeadline();
    });
    // A worker that died of its own (out of memory): the check it was on fails, the rest go on anew.
    worker.on('error', (error) => this.abandon(`the check failed: ${error.message}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answered(reply: WorkerVerdict & { id: number }): void {
    const entry = this.pending.get(reply.id);
    if (!entry) return;
    this.pending.delete(reply.id);
    clearTimeout(this.deadline);
    const { id: _id, ...verdict } = reply;
    entry.resolve(verdict);
    if (this.pending.size > 0) this.armDeadline();
    else this.worker?.unref();
  }

  private armDeadline(): void {
    if (!this.ready) return;
    clearTimeout(this.deadline);
    this.deadline = setTimeout(() => this.abandon(`the check took longer than ${this.deadlineMs} ms and was stopped`), this.deadlineMs);
  }

  /** Ends the worker, fails the check it was on, and sends the others to a new one. */
  private abandon(reason: string): void {
    clearTimeout(this.deadline);
    const worker = this.worker;
    this.worker = undefined;
    worker?.removeAllListeners('message');
    void worker?.terminate();
    const [first, ...rest] = this.pending.values();
    if (!first) return;
    this.pending.delete(first.message.id);
    first.resolve({ ok: false, unchecked: true, message: reason });
    if (rest.length === 0) return;
    // the new worker's deadline starts when it says it is ready
    let next: Worker;
    try {
      next = this.running();
    } catch (error) {
      for (const entry of rest) entry.resolve({ ok: false, unchecked: true, message: `the schema worker could not start: ${(error as Error).message}` });
      this.pending.clear();
      return;
    }
    next.ref();
    for (const entry of rest) next.postMessage(entry.message);
  }

  /** Starts the worker ahead of the first check (an agent with JSON Schema tools was built); one that cannot start is tried again at the first check. */
  warm(): void {
    try {
      this.running();
    } catch {
      // the first check says why
    }
  }
}

const require = createRequire(import.meta.url);

/** The Ajv module of each dialect, as the worker loads it. */
export const AJV_MODULES: Record<JsonSchemaDialect, string> = {
  'draft-07': require.resolve('ajv'),
  '2019-09': require.resolve('ajv/dist/2019'),
  '2020-12': require.resolve('ajv/dist/2020'),
};
