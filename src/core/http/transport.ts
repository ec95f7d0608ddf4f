import { AuthError, CancelledError, MalformedResponseError, StratusError, type AnyStratusError } from '../errors';
import { silentLogger, type Logger } from '../log';
import { toApiError } from './apiError';
import { checkedRetry, checkedTimeout, fullJitterDelay } from './backoff';
import { AttemptControl, headerRecord, timedBody } from './body';
import { toBodyReadError, toStratusError, type FailureContext } from './failure';
import { encodePayload, fetchBody } from './payload';
import { firstHeader } from './headers';
import { RESERVED_HEADERS } from './gatewayHeaders';
import { Redactor } from './redact';
import { MAX_SERVER_WAIT_MS, parseRetryAfter, serverRetryDelay } from './retryAfter';
import { sleep } from './sleep';
import { countedBody, featureOfPath, payloadBytes } from './traffic';
import type {
  FetchInit,
  FetchLike,
  HttpResponse,
  RequestOptions,
  ResponseBody,
  ResponseHeaders,
  RetryOptions,
  TransportOptions,
  TransportTimeouts,
} from './types';
import { joinUrl, parseBaseUrl } from './url';
import { failureAfterSending, mayResendAfterFailure, mayResendAfterStatus, sendPolicy } from './writeSafety';

export const DEFAULT_TIMEOUTS: Readonly<TransportTimeouts> = {
  connectMs: 10_000,
  firstByteMs: 60_000,
  idleMs: 60_000,
};

export const DEFAULT_RETRY: Readonly<RetryOptions> = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxWaitMs: 20_000,
  statuses: [429, 500, 502, 503, 504],
};

const MAX_ATTEMPTS = 5;
const MAX_ERROR_BODY_CHARS = 64 * 1024;
/** Longest timeout honoured (a day; longer ones are cut to it). One that is not a positive number is the default. */
const MAX_TIMEOUT_MS = 86_400_000;
// The joined URLs kept by `url` (the API paths are a few fixed strings; paths with ids beyond these are joined each time).
const MAX_JOINED_PATHS = 64;

function checkedTimeouts(t: TransportTimeouts): TransportTimeouts {
  return {
    connectMs: checkedTimeout(t.connectMs, DEFAULT_TIMEOUTS.connectMs, MAX_TIMEOUT_MS),
    firstByteMs: checkedTimeout(t.firstByteMs, DEFAULT_TIMEOUTS.firstByteMs, MAX_TIMEOUT_MS),
    idleMs: checkedTimeout(t.idleMs, DEFAULT_TIMEOUTS.idleMs, MAX_TIMEOUT_MS),
  };
}

/**
 * The HTTP client both APIs share, over a fetch engine (in VS Code the extension host's `fetch`,
 * which carries the user's proxy and certificates): base URL joining, bearer auth, timeouts,
 * cancellation, retries with backoff (writeSafety.ts: a request that may have been applied is never
 * resent unless idempotent, a write never, a billed one once after a 5xx), client-side rate
 * limiting, and redaction of secrets in every error and log line.
 * Non-2xx answers become typed errors.
 */
export class HttpTransport {
  private readonly logger: Logger;
  /** False for the silent logger: debug lines (redaction, URL formatting) are then not built. */
  private readonly logging: boolean;
  private readonly redactor: Redactor;
  private readonly timeouts: TransportTimeouts;
  private readonly retry: RetryOptions;
  private readonly inFlight = new Set<AttemptControl>();
  private base: URL | undefined;
  /** Each path's joined URL (`url`), worked out once: every request of a stream used to join it anew. */
  private readonly joined = new Map<string, string>();

  constructor(private readonly options: TransportOptions) {
    this.logger = options.logger ?? silentLogger;
    this.logging = this.logger !== silentLogger;
    this.timeouts = checkedTimeouts({ ...DEFAULT_TIMEOUTS, ...options.timeouts });
    this.retry = checkedRetry({ ...DEFAULT_RETRY, ...options.retry }, DEFAULT_RETRY, MAX_ATTEMPTS, MAX_SERVER_WAIT_MS);
    this.redactor = options.redactor ?? new Redactor();
  }

  /** Removes known secrets (tokens seen by this transport) and credential patterns from `text`. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** Full URL for an API path (validates the configured base URL). */
  url(path: string): string {
    let joined = this.joined.get(path);
    if (joined === undefined) {
      this.base ??= parseBaseUrl(this.options.baseUrl, this.options.baseUrlParam);
      joined = joinUrl(this.base, path);
      // The API paths are a few fixed strings; ids in paths are many, and not kept.
      if (this.joined.size < MAX_JOINED_PATHS) this.joined.set(path, joined);
    }
    return joined;
  }

  /** Sends a request; resolves with a 2xx response whose body is unread, or throws a typed error. */
  async request(req: RequestOptions): Promise<HttpResponse> {
    const url = new URL(this.url(req.path));
    const redactor = this.redactor;
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    // Redacted when logged, so a token fetched on a later attempt is covered too.
    const where = (): string => this.redact(`${req.method} ${url.pathname}${url.search}`);
    let target: string | undefined;
    const ctx: FailureContext = {
      // Redacted when first used (an error, a log line), not before every request is sent: with
      // the secrets known by then, so a token fetched after the request started is covered too.
      get target(): string {
        return (target ??= redactor.redact(`${req.method} ${url.origin}${url.pathname}`));
      },
      streaming: req.streaming === true,
      connectMs: this.timeouts.connectMs,
      firstByteMs: checkedTimeout(req.timeouts?.firstByteMs, this.timeouts.firstByteMs, MAX_TIMEOUT_MS),
      idleMs: checkedTimeout(req.timeouts?.idleMs, this.timeouts.idleMs, MAX_TIMEOUT_MS),
      signal: req.signal,
      redact: (text) => this.redact(text),
    };
    const retry: RetryOptions =
      req.retry === false ? { ...this.retry, attempts: 1 } : checkedRetry({ ...this.retry, ...req.retry }, this.retry, MAX_ATTEMPTS, MAX_SERVER_WAIT_MS);
    const attempts = retry.attempts;
    const policy = sendPolicy(req.method, req);
    const payload = encodePayload(req);
    const useAuth = req.auth !== false && this.options.auth !== undefined;
    let reauthenticated = false;
    let serverErrorResends = 0;

    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw new CancelledError(`${ctx.target} was cancelled`);
      if (req.rateLimitKey && this.options.rateLimiter) {
        await this.options.rateLimiter.acquire(req.rateLimitKey, req.signal);
      }
      const token = useAuth ? await this.token() : undefined;
      const gateway = await this.options.gatewayHeaders?.();
      if ((token || req.sendsSecret) && this.options.beforeSecretSent) await this.options.beforeSecretSent(url, this.options.secretName ?? 'credentials', this.options.baseUrlParam ?? 'baseUrl');
      const started = performance.now();
      const control = new AttemptControl(req.signal);
      let res: Response;
      try {
        const engine: FetchLike = this.options.fetch ?? globalThis.fetch;
        const sent = fetchBody(payload, req.onUploadProgress, (error) => control.failBody(error));
        const init: FetchInit = {
          method: req.method,
          headers: this.headers(req, sent.contentType, token, gateway),
          body: sent.body,
          signal: control.signal,
          redirect: 'manual',
          ...(sent.duplex ? { duplex: 'half' as const } : {}),
        };
        control.arm('first_byte', ctx.firstByteMs);
        this.inFlight.add(control);
        res = await engine(url.href, init);
        control.disarm();
      } catch (error) {
        control.release();
        this.inFlight.delete(control);
        const err = toStratusError(control.fired === 'body' ? control.bodyError : error, ctx, control.fired);
        if (this.logging) this.logger.debug(`${where()} failed after ${elapsed(started)} ms: ${err.kind}`);
        if (attempt < attempts && mayResendAfterFailure(err, policy)) {
          const wait = fullJitterDelay(attempt - 1, retry.baseDelayMs, retry.maxDelayMs, this.options.random);
          if (this.logging) this.logger.debug(`${where()}: retry ${attempt}/${attempts - 1} in ${wait} ms`);
          await sleep(wait, req.signal);
          continue;
        }
        throw failureAfterSending(err, policy, ctx.target);
      }

      // The Network Activity view's one hook: host, feature and sizes, never content.
      const received = this.options.traffic?.sent({ host: url.host, feature: req.feature ?? featureOfPath(req.path), bytes: payloadBytes(payload) });
      const status = res.status;
      const headers = headerRecord(res.headers);
      if (this.logging) this.logger.debug(`${where()} ${status} in ${elapsed(started)} ms`);
      if (status >= 200 && status < 300) {
        const response = this.wrap(res, headers, control, ctx, received);
        // A read (idempotent, not streamed) is read whole here while a retry is left, so a
        // connection that breaks in its body is sent again like one that broke before the headers.
        if (!policy.idempotent || req.streaming === true || attempt >= attempts) return response;
        let text: string;
        try {
          text = await response.text();
        } catch (error) {
          const err = error instanceof StratusError ? (error as AnyStratusError) : response.toError(error);
          if (err.kind !== 'network' || req.signal?.aborted) throw err;
          const wait = fullJitterDelay(attempt - 1, retry.baseDelayMs, retry.maxDelayMs, this.options.random);
          if (this.logging) this.logger.debug(`${where()}: the response broke (${err.code ?? 'network'}), retry ${attempt}/${attempts - 1} in ${wait} ms`);
          await sleep(wait, req.signal);
          continue;
        }
        return bufferedResponse(response, text, ctx.target);
      }

      const errorBody = timedBody(res.body, control, ctx.idleMs);
      const bodyText = await readErrorBody(received ? countedBody(errorBody, received) : errorBody);
      this.inFlight.delete(control);
      const err = toApiError({
        status,
        headers,
        bodyText,
        target: ctx.target,
        secretName: this.options.secretName,
        redact: ctx.redact,
      });
      if (status === 401 && token && this.options.onUnauthorized && !reauthenticated) {
        reauthenticated = true;
        if (await this.options.onUnauthorized()) {
          attempt--; // a refreshed credential does not use up a retry
          continue;
        }
      }
      if (attempt < attempts && mayResendAfterStatus(status, policy, retry.statuses, serverErrorResends)) {
        if (status !== 429) serverErrorResends++;
        const asked =
          status === 429 ? serverRetryDelay(headers) : parseRetryAfter(headers['retry-after']);
        if (asked !== undefined && asked > retry.maxWaitMs) {
          if (this.logging) this.logger.debug(`${where()}: server asks to wait ${asked} ms, over the cap`);
          throw err;
        }
        const wait =
          asked ?? fullJitterDelay(attempt - 1, retry.baseDelayMs, retry.maxDelayMs, this.options.random);
        if (this.logging) this.logger.debug(`${where()}: HTTP ${status}, retry ${attempt}/${attempts - 1} in ${wait} ms`);
        await sleep(wait, req.signal);
        continue;
      }
      throw err;
    }
  }

  /**
   * Aborts what this transport still has in flight (the engine owns the connection pool, shared
   * with the rest of the process). A later request works as usual.
   */
  async close(): Promise<void> {
    for (const control of this.inFlight) {
      control.release();
      control.controller.abort();
    }
    this.inFlight.clear();
    await Promise.resolve();
  }

  private async token(): Promise<string> {
    const name = this.options.secretName ?? 'API key';
    let value: string | undefined;
    try {
      value = await this.options.auth?.();
    } catch (error) {
      if (error instanceof StratusError) throw error;
      throw new AuthError(`Could not read the ${name}`, { reason: 'missing', secretName: name });
    }
    const token = value?.trim();
    if (!token) {
      throw new AuthError(`No ${name} is set`, { reason: 'missing', secretName: name });
    }
    this.registerToken(token);
    return token;
  }

  /**
   * Registers a secret the core received (a PAT's id and secret) with this transport's redactor,
   * encoded forms included, before it is sent anywhere.
   */
  registerSecret(secret: string | undefined): void {
    this.redactor.add(secret);
  }

  /** Registers a bearer token: in `tokenSlot` when it rotates (only its current value), else pinned. */
  registerToken(token: string): void {
    if (this.options.tokenSlot) this.redactor.setSlot(this.options.tokenSlot, token);
    else this.redactor.add(token);
  }

  private headers(req: RequestOptions, contentType: string | undefined, token: string | undefined, gateway: Readonly<Record<string, string>> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      accept: req.streaming ? 'text/event-stream' : 'application/json',
      'user-agent': this.options.userAgent ?? 'stratus',
    };
    for (const [k, v] of Object.entries(gateway)) {
      if (!RESERVED_HEADERS.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
    }
    for (const [k, v] of Object.entries({ ...this.options.headers, ...req.headers })) {
      headers[k.toLowerCase()] = v;
    }
    if (contentType) headers['content-type'] = contentType;
    if (token) headers.authorization = `Bearer ${token}`;
    return headers;
  }

  private wrap(res: Response, headers: ResponseHeaders, control: AttemptControl, ctx: FailureContext, received: ((bytes: number) => void) | undefined): HttpResponse {
    const timed = timedBody(res.body, control, ctx.idleMs);
    const body = received ? countedBody(timed, received) : timed;
    const done = (): void => {
      this.inFlight.delete(control);
    };
    const toError = (error: unknown): ReturnType<typeof toStratusError> => {
      done();
      return toBodyReadError(error, ctx, control.fired);
    };
    const text = async (): Promise<string> => {
      let out = '';
      const utf8 = new TextDecoder();
      try {
        for await (const chunk of body) out += utf8.decode(chunk, { stream: true });
      } catch (error) {
        throw toError(error);
      }
      done();
      return out + utf8.decode();
    };
    return {
      status: res.status,
      headers,
      requestId: firstHeader(headers, 'x-request-id'),
      body,
      text,
      json: async () => parseJsonBody(await text(), ctx.target),
      toError,
      dispose: () => {
        done();
        control.release();
        res.body?.cancel().catch(() => undefined);
      },
    };
  }
}

/** A response whose body was read whole: the same reads, from memory. */
function bufferedResponse(response: HttpResponse, text: string, target: string): HttpResponse {
  let used = false;
  return {
    status: response.status,
    headers: response.headers,
    requestId: response.requestId,
    body: {
      async *[Symbol.asyncIterator]() {
        if (used) throw new Error('The response body can be read once');
        used = true;
        yield new TextEncoder().encode(text);
      },
    },
    text: () => Promise.resolve(text),
    json: async () => parseJsonBody(text, target),
    toError: response.toError,
    dispose: () => undefined,
  };
}

function parseJsonBody(text: string, target: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the body, which is not ours to log.
    throw new MalformedResponseError(`${target} returned a body that is not valid JSON`);
  }
}

async function readErrorBody(body: ResponseBody): Promise<string> {
  let text = '';
  const utf8 = new TextDecoder();
  try {
    for await (const chunk of body) {
      text += utf8.decode(chunk, { stream: true });
      if (text.length > MAX_ERROR_BODY_CHARS) break; // leaving the loop destroys the body
    }
  } catch {
    // A partial error body still gives the status; the failure itself is not the story.
  }
  return text;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/** Creates a transport; nothing is connected until the first request. */
export function createTransport(options: TransportOptions): HttpTransport {
  return new HttpTransport(options);
}
