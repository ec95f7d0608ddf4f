import type { Dispatcher } from 'undici';
import { AuthError, CancelledError, MalformedResponseError, StratusError } from '../errors';
import { silentLogger, type Logger } from '../log';
import { toApiError } from './api-error';
import { fullJitterDelay } from './backoff';
import { createDispatcher } from './dispatcher';
import { isRetryableFailure, toStratusError, type FailureContext } from './failure';
import { Redactor } from './redact';
import { parseRetryAfter, serverRetryDelay } from './retry-after';
import { sleep } from './sleep';
import type {
  HttpResponse,
  MultipartField,
  RequestOptions,
  ResponseBody,
  ResponseHeaders,
  RetryOptions,
  TransportOptions,
  TransportTimeouts,
} from './types';
import { loadUndici, type Undici } from './undici-loader';
import { joinUrl, parseBaseUrl } from './url';

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
  statuses: [429, 500, 503],
};

const MAX_ATTEMPTS = 5;
const MAX_ERROR_BODY_CHARS = 64 * 1024;
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

type Payload =
  | { kind: 'none' }
  | { kind: 'raw'; data: string | Uint8Array; contentType: string }
  | { kind: 'form'; fields: readonly MultipartField[] };

function firstHeader(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The HTTP client both APIs share (undici, loaded on first use): base URL joining, bearer auth,
 * timeouts, cancellation, retries with backoff, client-side rate limiting, proxy and CA, and
 * redaction of secrets in every error and log line. Non-2xx answers become typed errors.
 */
export class HttpTransport {
  private readonly logger: Logger;
  /** False for the silent logger: debug lines (redaction, URL formatting) are then not built. */
  private readonly logging: boolean;
  private readonly redactor = new Redactor();
  private readonly timeouts: TransportTimeouts;
  private readonly retry: RetryOptions;
  private dispatcher: Dispatcher | undefined;
  private undici: Undici | undefined;
  private base: URL | undefined;

  constructor(private readonly options: TransportOptions) {
    this.logger = options.logger ?? silentLogger;
    this.logging = this.logger !== silentLogger;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.redactor.add(proxyPassword(options.proxy?.url));
  }

  /** Removes known secrets (tokens seen by this transport) and credential patterns from `text`. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** Full URL for an API path (validates the configured base URL). */
  url(path: string): string {
    this.base ??= parseBaseUrl(this.options.baseUrl, this.options.baseUrlParam);
    return joinUrl(this.base, path);
  }

  /** Sends a request; resolves with a 2xx response whose body is unread, or throws a typed error. */
  async request(req: RequestOptions): Promise<HttpResponse> {
    const url = new URL(this.url(req.path));
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    // Redacted when logged, so a token fetched on a later attempt is covered too.
    const where = (): string => this.redact(`${req.method} ${url.pathname}${url.search}`);
    const ctx: FailureContext = {
      target: this.redact(`${req.method} ${url.origin}${url.pathname}`),
      streaming: req.streaming === true,
      connectMs: this.timeouts.connectMs,
      firstByteMs: req.timeouts?.firstByteMs ?? this.timeouts.firstByteMs,
      idleMs: req.timeouts?.idleMs ?? this.timeouts.idleMs,
      signal: req.signal,
      redact: (text) => this.redact(text),
    };
    const retry: RetryOptions =
      req.retry === false ? { ...this.retry, attempts: 1 } : { ...this.retry, ...req.retry };
    const attempts = Math.min(MAX_ATTEMPTS, Math.max(1, Math.floor(retry.attempts)));
    const idempotent = req.idempotent ?? IDEMPOTENT_METHODS.has(req.method);
    const payload = encodePayload(req);
    const useAuth = req.auth !== false && this.options.auth !== undefined;
    let reauthenticated = false;

    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw new CancelledError(`${ctx.target} was cancelled`);
      if (req.rateLimitKey && this.options.rateLimiter) {
        await this.options.rateLimiter.acquire(req.rateLimitKey, req.signal);
      }
      const token = useAuth ? await this.token() : undefined;
      const started = performance.now();
      let res: Dispatcher.ResponseData;
      try {
        const dispatcher = await this.getDispatcher();
        res = await dispatcher.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: req.method,
          headers: this.headers(req, payload, token),
          body: this.body(payload),
          signal: req.signal ?? null,
          headersTimeout: ctx.firstByteMs,
          bodyTimeout: ctx.idleMs,
        });
      } catch (error) {
        const err = toStratusError(error, ctx);
        if (this.logging) this.logger.debug(`${where()} failed after ${elapsed(started)} ms: ${err.kind}`);
        if (attempt < attempts && isRetryableFailure(err, idempotent)) {
          const wait = fullJitterDelay(attempt - 1, retry.baseDelayMs, retry.maxDelayMs, this.options.random);
          if (this.logging) this.logger.debug(`${where()}: retry ${attempt}/${attempts - 1} in ${wait} ms`);
          await sleep(wait, req.signal);
          continue;
        }
        throw err;
      }

      const status = res.statusCode;
      if (this.logging) this.logger.debug(`${where()} ${status} in ${elapsed(started)} ms`);
      if (status >= 200 && status < 300) return this.wrap(res, ctx);

      const bodyText = await readErrorBody(res.body);
      const err = toApiError({
        status,
        headers: res.headers,
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
      if (attempt < attempts && retry.statuses.includes(status)) {
        const asked =
          status === 429 ? serverRetryDelay(res.headers) : parseRetryAfter(res.headers['retry-after']);
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

  /** Releases pooled connections. A later request opens new ones. */
  async close(): Promise<void> {
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    await dispatcher?.close();
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
    this.redactor.add(value);
    this.redactor.add(token);
    return token;
  }

  private async getDispatcher(): Promise<Dispatcher> {
    if (this.dispatcher) return this.dispatcher;
    const undici = await loadUndici();
    this.undici = undici;
    this.dispatcher ??= createDispatcher(undici, {
      connectTimeoutMs: this.timeouts.connectMs,
      proxy: this.options.proxy ?? {},
      ca: this.options.ca ?? [],
      rejectUnauthorized: this.options.rejectUnauthorized !== false,
    });
    return this.dispatcher;
  }

  private headers(req: RequestOptions, payload: Payload, token: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      accept: req.streaming ? 'text/event-stream' : 'application/json',
      'user-agent': this.options.userAgent ?? 'stratus',
    };
    for (const [k, v] of Object.entries({ ...this.options.headers, ...req.headers })) {
      headers[k.toLowerCase()] = v;
    }
    if (payload.kind === 'raw') headers['content-type'] = payload.contentType;
    if (token) headers.authorization = `Bearer ${token}`;
    return headers;
  }

  private body(payload: Payload): Dispatcher.DispatchOptions['body'] {
    switch (payload.kind) {
      case 'none':
        return null;
      case 'raw':
        return payload.data;
      case 'form': {
        // undici's own FormData: it sets the multipart boundary header itself.
        const undici = this.undici as Undici;
        const form = new undici.FormData();
        for (const field of payload.fields) {
          if ('value' in field) form.append(field.name, field.value);
          else if ('blob' in field) form.append(field.name, field.blob, field.filename);
          else {
            const type = field.contentType ?? 'application/octet-stream';
            form.append(field.name, new Blob([field.data], { type }), field.filename);
          }
        }
        return form;
      }
    }
  }

  private wrap(res: Dispatcher.ResponseData, ctx: FailureContext): HttpResponse {
    const body = res.body;
    const toError = (error: unknown): ReturnType<typeof toStratusError> => toStratusError(error, ctx);
    const text = async (): Promise<string> => {
      try {
        return await body.text();
      } catch (error) {
        throw toError(error);
      }
    };
    return {
      status: res.statusCode,
      headers: res.headers,
      requestId: firstHeader(res.headers, 'x-request-id'),
      body,
      text,
      json: async () => parseJsonBody(await text(), ctx.target),
      toError,
      dispose: () => {
        body.dump().catch(() => undefined);
      },
    };
  }
}

function encodePayload(req: RequestOptions): Payload {
  if (req.form) return { kind: 'form', fields: req.form };
  if (req.body) return { kind: 'raw', data: req.body.data, contentType: req.body.contentType };
  if (req.json !== undefined) {
    return { kind: 'raw', data: JSON.stringify(req.json), contentType: 'application/json' };
  }
  return { kind: 'none' };
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
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
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

function proxyPassword(proxyUrl: string | undefined): string | undefined {
  if (!proxyUrl) return undefined;
  try {
    return decodeURIComponent(new URL(proxyUrl).password) || undefined;
  } catch {
    return undefined;
  }
}

/** Creates a transport; nothing is loaded or connected until the first request. */
export function createTransport(options: TransportOptions): HttpTransport {
  return new HttpTransport(options);
}
