import { isStratusError, NotFoundError, RateLimitError } from '../errors';
import { capBlock } from '../usage/guard';
import { DEFAULT_MAX_TOKENS } from '../usage/rates';
import type { UsageSnapshot } from '../usage/summary';
import { DEFAULT_DEBOUNCE_MS } from './debounce';

/**
 * The tier back-off of inline completion, a pure state machine (time is passed in). Two inputs:
 *
 * Usage (the guard's projection, from the usage snapshot), worst window of hour and day:
 * - `normal`;
 * - `slow` (debounce x SLOW_DEBOUNCE_FACTOR) at SLOW_AT of a cap, or when the forecast reaches a
 *   cap before its window resets;
 * - `singleLine` (and the slow debounce) at SINGLE_LINE_AT of a cap, or a cap forecast within
 *   SINGLE_LINE_WITHIN_MS;
 * - `paused` until the window resets once a cap is reached or less than one default chat answer
 *   (DEFAULT_MAX_TOKENS) is left: completions stop before chat has to, leaving it that room.
 * Errors (typed, by `kind`, never by message):
 * - 401 / 403 / 400 / unknown model: `stopped` with one reason until `reset()` (the key, model or
 *   settings changed); `notify` is true only on the transition, for one notification;
 * - 429, network, timeout, stalled or 5xx: `paused` silently for a growing delay
 *   (ERROR_BASE_MS x 2^(n-1) up to ERROR_MAX_MS, or the server's Retry-After when later). No
 *   request is admitted before it ends, so there is never a 429 loop; one success clears it;
 * - the client-side usage cap (UsageCapError): `paused` until its reset;
 * - a cancellation is no error.
 * The worst of the two inputs wins: stopped > paused > singleLine > slow > normal.
 */
export type BackoffState =
  | { kind: 'normal' }
  | { kind: 'slow'; reason: 'tierForecast' | 'tierNearCap' }
  | { kind: 'singleLine'; reason: 'tierForecast' | 'tierNearCap' }
  | { kind: 'paused'; reason: 'tierCap' | 'rateLimited' | 'network' | 'server'; window?: 'hour' | 'day'; resumesAt: number }
  | { kind: 'stopped'; reason: 'auth' | 'forbidden' | 'badRequest' | 'modelNotFound'; message: string };

export const SLOW_AT = 0.75;
export const SINGLE_LINE_AT = 0.9;
export const SINGLE_LINE_WITHIN_MS = 15 * 60_000;
export const SLOW_DEBOUNCE_FACTOR = 3;
export const ERROR_BASE_MS = 2_000;
export const ERROR_MAX_MS = 5 * 60_000;
/** Output tokens left for chat when completions pause. */
export const CHAT_RESERVE_TOKENS = DEFAULT_MAX_TOKENS;

/** What the engine may do now. */
export interface Admission {
  allowed: boolean;
  debounceMs: number;
  singleLineOnly: boolean;
  state: BackoffState;
}

const RANK: Record<BackoffState['kind'], number> = { normal: 0, slow: 1, singleLine: 2, paused: 3, stopped: 4 };

/** The usage part of the state, from a usage snapshot (pure). */
export function usageState(snapshot: UsageSnapshot, now: number): BackoffState {
  const block = capBlock(snapshot, { model: '', maxTokens: CHAT_RESERVE_TOKENS });
  if (block) return { kind: 'paused', reason: 'tierCap', window: block.window, resumesAt: block.resetsAt };
  const fraction = Math.max(...[snapshot.hour, snapshot.day].map((g) => (g.cap ? g.used / g.cap : 0)));
  const forecasts = [snapshot.forecast.hourCap, snapshot.forecast.dayCap];
  const soon = forecasts.some((f) => f.state === 'at' && f.at - now <= SINGLE_LINE_WITHIN_MS);
  const thisWindow = forecasts.some((f) => f.state === 'at');
  if (fraction >= SINGLE_LINE_AT) return { kind: 'singleLine', reason: 'tierNearCap' };
  if (soon) return { kind: 'singleLine', reason: 'tierForecast' };
  if (fraction >= SLOW_AT) return { kind: 'slow', reason: 'tierNearCap' };
  if (thisWindow) return { kind: 'slow', reason: 'tierForecast' };
  return { kind: 'normal' };
}

export class TierBackoff {
  private usage: BackoffState = { kind: 'normal' };
  private error: BackoffState = { kind: 'normal' };
  private failures = 0;

  constructor(private readonly baseDebounceMs: number = DEFAULT_DEBOUNCE_MS) {}

  /** Feeds the latest usage snapshot (after each metered request, or on a timer). */
  observeUsage(snapshot: UsageSnapshot, now: number): void {
    this.usage = usageState(snapshot, now);
  }

  /** Feeds a request's failure; `notify` is true once, when completions stop for this reason. */
  observeError(error: unknown, now: number): { notify: boolean } {
    if (!isStratusError(error)) return this.pauseFor('network', now, undefined);
    switch (error.kind) {
      case 'cancelled':
        return { notify: false };
      case 'auth':
        return this.stop('auth', error.message);
      case 'forbidden':
        return this.stop('forbidden', error.message);
      case 'validation':
        return this.stop('badRequest', error.message);
      case 'not_found':
        return error instanceof NotFoundError && error.isModelNotFound ? this.stop('modelNotFound', error.message) : this.pauseFor('server', now, undefined);
      case 'api':
        if (error.status === 400) return this.stop('badRequest', error.message);
        return this.pauseFor(error.status === 429 ? 'rateLimited' : 'server', now, error.retryAfterMs);
      case 'rate_limit':
        // Retry-After is relative: prefer it to retryAt, which was dated with the transport's clock.
        return this.pauseFor('rateLimited', now, error.retryAfterMs ?? (error instanceof RateLimitError && error.retryAt ? error.retryAt.getTime() - now : undefined));
      case 'usage_cap':
        this.error = { kind: 'paused', reason: 'tierCap', window: error.window, resumesAt: error.resetsAt.getTime() };
        return { notify: false };
      default:
        return this.pauseFor('network', now, undefined);
    }
  }

  /** A request succeeded: the error back-off is over. */
  observeSuccess(): void {
    this.failures = 0;
    if (this.error.kind !== 'stopped') this.error = { kind: 'normal' };
  }

  /** The user changed the key, the model or the settings: try again from scratch. */
  reset(): void {
    this.failures = 0;
    this.error = { kind: 'normal' };
  }

  /** The state now (a pause that has ended no longer counts). */
  state(now: number): BackoffState {
    const live = (s: BackoffState): BackoffState => (s.kind === 'paused' && s.resumesAt <= now ? { kind: 'normal' } : s);
    const a = live(this.error);
    const b = live(this.usage);
    return RANK[a.kind] >= RANK[b.kind] ? a : b;
  }

  admit(now: number): Admission {
    const state = this.state(now);
    const slow = state.kind === 'slow' || state.kind === 'singleLine';
    return {
      allowed: state.kind !== 'paused' && state.kind !== 'stopped',
      debounceMs: slow ? this.baseDebounceMs * SLOW_DEBOUNCE_FACTOR : this.baseDebounceMs,
      singleLineOnly: state.kind === 'singleLine',
      state,
    };
  }

  private stop(reason: Extract<BackoffState, { kind: 'stopped' }>['reason'], message: string): { notify: boolean } {
    const already = this.error.kind === 'stopped';
    this.error = { kind: 'stopped', reason, message };
    return { notify: !already };
  }

  private pauseFor(reason: 'rateLimited' | 'network' | 'server', now: number, serverWaitMs: number | undefined): { notify: boolean } {
    if (this.error.kind === 'stopped') return { notify: false };
    this.failures += 1;
    const growing = Math.min(ERROR_MAX_MS, ERROR_BASE_MS * 2 ** Math.min(this.failures - 1, 20));
    const wait = serverWaitMs !== undefined && Number.isFinite(serverWaitMs) ? Math.max(growing, Math.min(serverWaitMs, ERROR_MAX_MS * 12)) : growing;
    this.error = { kind: 'paused', reason, resumesAt: now + wait };
    return { notify: false };
  }
}
