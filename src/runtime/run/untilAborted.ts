/**
 * Waiting on the app's own code (a Parallel's async merge, a Standard Schema's validate()) no longer
 * than the run: such code is given no signal, may never settle, and must not keep a cancelled run
 * waiting (nor answer it). What it started goes on by itself; only the wait ends.
 */

/**
 * What `work` settles to, or a rejection with the signal's reason once it aborts (at once if it has).
 * A value that is no promise was already there before any abort could land: it is the answer.
 */
export function untilAborted<T>(work: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined || !(work instanceof Promise)) return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
