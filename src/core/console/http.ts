import type { HttpTransport } from '../http/transport';
import type { HttpMethod, HttpResponse, RetryOptions } from '../http/types';
import { abortable } from '../abortable';
import type { DeprecationWatcher } from './deprecation';
import type { RequestContext } from './request-context';
import { rateLimitKeyOf } from './catalog/routes';

export interface ConsoleCall {
  method: HttpMethod;
  /** Endpoint path template (deprecation key), e.g. `/api/compute/v1/virtual-machines/{id}`. */
  endpoint: string;
  /** The concrete path. */
  path: string;
  query?: Readonly<Record<string, string | number | undefined>>;
  json?: unknown;
  signal?: AbortSignal | undefined;
  /** Send the bearer token (default true); false for the PAT exchange. */
  auth?: boolean;
  retry?: Partial<RetryOptions> | false;
  /** A write (creates an activity): the transport's write-safety policy applies (http/writeSafety.ts). */
  write?: boolean;
  /** The body carries a secret (the PAT exchange): the plain-http gate applies. */
  sendsSecret?: boolean;
}

/** Every console request goes through here: module rate-limit key, auth context, deprecation check. */
export class ConsoleHttp {
  constructor(
    private readonly transport: HttpTransport,
    private readonly context: RequestContext,
    private readonly deprecations: DeprecationWatcher,
  ) {}

  async send(call: ConsoleCall): Promise<HttpResponse> {
    // abortable: a request queued in the rate limiter would otherwise only see an abort on its turn.
    const pending = this.context.run(call.signal, () =>
      this.transport.request({
        method: call.method,
        path: call.path,
        query: call.query,
        json: call.json,
        signal: call.signal,
        auth: call.auth ?? true,
        retry: call.retry,
        ...(call.write ? { write: true } : {}),
        rateLimitKey: rateLimitKeyOf(call.path),
        ...(call.sendsSecret ? { sendsSecret: true } : {}),
      }),
    );
    const res = await abortable(pending, call.signal, (late) => late.dispose());
    this.deprecations.check({ method: call.method, path: call.endpoint }, res.headers);
    return res;
  }
}
