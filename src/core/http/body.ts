import type { ResponseBody, ResponseHeaders } from './types';

/** Why the transport aborted an attempt itself (as opposed to the caller cancelling). */
export type AttemptAbort = 'first_byte' | 'idle' | 'body' | undefined;

/** One attempt's abort controller and its timers: the first-byte deadline, then the idle timer. */
export class AttemptControl {
  readonly controller = new AbortController();
  /** Set when a timer of ours fired (or the request body failed), so the failure is not a cancellation. */
  fired: AttemptAbort;
  /** Why the request body could not be read, when `fired` is 'body'. */
  bodyError: unknown;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unlink: () => void;

  constructor(callerSignal: AbortSignal | undefined) {
    if (!callerSignal) {
      this.unlink = () => undefined;
      return;
    }
    const onAbort = (): void => this.controller.abort(callerSignal.reason);
    callerSignal.addEventListener('abort', onAbort, { once: true });
    this.unlink = () => callerSignal.removeEventListener('abort', onAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborts the attempt after `ms` unless disarmed or re-armed first. */
  arm(kind: 'first_byte' | 'idle', ms: number): void {
    this.disarm();
    this.timer = setTimeout(() => {
      this.fired = kind;
      this.controller.abort();
    }, ms);
  }

  /** The request body failed while being sent: stop the attempt now rather than at a timeout. */
  failBody(error: unknown): void {
    if (this.fired) return;
    this.fired = 'body';
    this.bodyError = error;
    this.disarm();
    this.controller.abort();
  }

  /** Pushes the running timer back by its full period (one call per body chunk: cheap). */
  refresh(): void {
    this.timer?.refresh();
  }

  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The attempt is over: no timer, no listener on the caller's signal. */
  release(): void {
    this.disarm();
    this.unlink();
  }
}

/**
 * The response body as a plain async iterable with the idle timer running while it is read. One
 * `reader.read()` per network chunk and a timer refresh: no stream transforms, no per-chunk
 * promises beyond the read itself. Leaving a loop early cancels the body (closing the connection).
 */
export function timedBody(stream: ReadableStream<Uint8Array> | null, control: AttemptControl, idleMs: number): ResponseBody {
  let used = false;
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      if (used) throw new Error('The response body can be read once');
      used = true;
      if (!stream) {
        control.release();
        return { next: () => Promise.resolve({ done: true, value: undefined }) };
      }
      const reader = stream.getReader();
      control.arm('idle', idleMs);
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          try {
            const step = await reader.read();
            if (step.done) {
              control.release();
              return { done: true, value: undefined };
            }
            control.refresh();
            return { done: false, value: step.value };
          } catch (error) {
            control.release();
            throw error;
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          control.release();
          await reader.cancel().catch(() => undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Response headers as a lowercase record (the shape every reader of headers expects). */
export function headerRecord(headers: Headers): ResponseHeaders {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
