import { CancelledError } from './errors';

/**
 * Waits for a promise but rejects with CancelledError as soon as `signal` aborts, without
 * cancelling the work itself: a shared exchange other callers joined, or a request queued in the
 * rate limiter (which only notices an abort when its turn comes). A value that arrives after the
 * abort is handed to `onLate` (e.g. to release a response); a late failure is dropped.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, onLate?: (value: T) => void): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      if (settled) return;
      settled = true;
      reject(new CancelledError());
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) onLate?.(value);
        else {
          settled = true;
          resolve(value);
        }
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) {
          settled = true;
          reject(error);
        }
      },
    );
  });
}
