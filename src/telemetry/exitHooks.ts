/**
 * Makes the last batch survive the process ending: on beforeExit (the event loop ran dry) telemetry
 * is flushed once; on SIGTERM or SIGINT it is shut down (flushed) once, and then, if the app has no
 * handler of its own for that signal, the signal is raised again so the process ends the way it
 * would have without us (killed by that signal). An app with its own handler keeps control of exit;
 * it should await the handle's shutdown() before calling process.exit().
 */

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export interface ExitActions {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
  /** Longest the signal handler waits for shutdown before letting the process end anyway. */
  shutdownTimeoutMs: number;
}

/** Installs the hooks; returns a function that removes them. */
export function installExitHooks(actions: ExitActions): () => void {
  const onBeforeExit = () => {
    void actions.flush();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    void boundedWait(actions.shutdown(), actions.shutdownTimeoutMs).then(() => {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  };
  const remove = () => {
    process.off('beforeExit', onBeforeExit);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  process.once('beforeExit', onBeforeExit);
  for (const signal of SIGNALS) process.once(signal, onSignal);
  return remove;
}

function boundedWait(work: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  return Promise.race([work.catch(() => undefined), deadline]).finally(() => clearTimeout(timer));
}
