import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Per-request state shared between our request wrapper and the transport's auth hooks. The
 * transport asks for a token and reports a 401 without saying which request is involved; running
 * each request in its own async context lets the 401 hook drop exactly the token that request
 * sent (not a newer one another request just fetched), and lets a token wait honour the caller's
 * AbortSignal.
 */
export interface RequestState {
  signal: AbortSignal | undefined;
  /** The bearer token the current attempt sent. */
  token: string | undefined;
}

export class RequestContext {
  private readonly storage = new AsyncLocalStorage<RequestState>();

  run<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    return this.storage.run({ signal, token: undefined }, fn);
  }

  current(): RequestState | undefined {
    return this.storage.getStore();
  }
}
