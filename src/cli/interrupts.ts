/**
 * Ctrl-C and SIGTERM for the demo: the first one asks the work to stop (an AbortSignal) and says what
 * happens next and that a second one exits at once; the second one exits at once, with the status a
 * process killed by that signal reports (128 + its number: 130 for SIGINT, 143 for SIGTERM).
 */

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export function exitStatusFor(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

export interface InterruptOptions {
  /** What the first signal's notice says will happen. */
  plan: string;
  write: (line: string) => void;
  exit: (code: number) => void;
}

export class Interrupts {
  private readonly controller = new AbortController();
  private received?: NodeJS.Signals;

  constructor(private readonly options: InterruptOptions) {
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  /** Aborted on the first signal. */
  get stop(): AbortSignal {
    return this.controller.signal;
  }

  /** The first signal received, if any. */
  get signal(): NodeJS.Signals | undefined {
    return this.received;
  }

  dispose(): void {
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    if (this.received === undefined) {
      this.received = signal;
      this.options.write(`footprint-otel: ${signal}: stopping. ${this.options.plan} Press Ctrl-C again (or send ${signal} again) to exit at once.`);
      this.controller.abort(new Error(signal));
      return;
    }
    this.options.write(`footprint-otel: second ${signal}: exiting now; telemetry not yet written or sent is lost.`);
    this.options.exit(exitStatusFor(signal));
  };
}
