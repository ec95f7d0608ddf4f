import { UsageCapError } from '../errors';
import { sleep as realSleep } from '../http/sleep';
import type { Logger } from '../log';
import { DEFAULT_MAX_TOKENS } from './rates';
import type { UsageSnapshot } from './summary';
import type { UsageSettings } from './settings';

/** What a generating request is about to ask for. */
export interface GenerationRequest {
  model: string;
  /** The request's `max_tokens`; the server default (1024) when absent. */
  maxTokens: number | undefined;
}

/** Checked before a chat or completion request is sent. */
export type BeforeGeneration = (request: GenerationRequest, signal: AbortSignal | undefined) => Promise<void>;

export interface CapBlock {
  window: 'hour' | 'day';
  used: number;
  cap: number;
  resetsAt: number;
  resetsAtLabel: string;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');
}

/**
 * Whether the request must wait: a window's cap is reached, or would be by `max_tokens`. An empty
 * window always admits a request (a `max_tokens` above the whole cap is the server's to refuse).
 * The day wins over the hour when both are blocked: its reset is the later one.
 */
export function capBlock(snapshot: UsageSnapshot, request: GenerationRequest): CapBlock | undefined {
  const expected = request.maxTokens !== undefined && request.maxTokens > 0 ? request.maxTokens : DEFAULT_MAX_TOKENS;
  const blocked = (g: UsageSnapshot['hour']): boolean => g.cap !== undefined && (g.used >= g.cap || (g.used > 0 && g.used + expected > g.cap));
  for (const [window, gauge] of [['day', snapshot.day], ['hour', snapshot.hour]] as const) {
    if (blocked(gauge) && gauge.cap !== undefined) {
      return { window, used: gauge.used, cap: gauge.cap, resetsAt: gauge.resetsAt, resetsAtLabel: gauge.resetsAtLabel };
    }
  }
  return undefined;
}

export function capError(block: CapBlock, tierName: string, request: GenerationRequest): UsageCapError {
  const expected = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  const why = block.used >= block.cap
    ? `${fmt(block.used)} of ${fmt(block.cap)} output tokens used this ${block.window} (${tierName})`
    : `${fmt(block.used)} of ${fmt(block.cap)} output tokens used this ${block.window} (${tierName}), and this request may generate ${fmt(expected)} more`;
  return new UsageCapError(`${why}. Wait, lower max_tokens, or move to a higher tier.`, block.window, block.used, block.cap, new Date(block.resetsAt), block.resetsAtLabel);
}

export interface CapGuardOptions {
  snapshot: () => UsageSnapshot;
  settings: () => UsageSettings;
  /** Merges other windows' usage before deciding (optional). */
  refresh?: () => Promise<void>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  logger?: Logger;
  /** Told when a request starts waiting for a reset (for a status message). */
  onWait?: (block: CapBlock) => void;
}

/**
 * The pre-emptive throttle: before a generating request, fail fast with UsageCapError, or (when
 * the user chose to wait) sleep until the window resets and check again. Cancellable.
 */
export function createCapGuard(options: CapGuardOptions): BeforeGeneration {
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  return async (request, signal) => {
    if (options.refresh) await options.refresh();
    for (;;) {
      const snapshot = options.snapshot();
      const block = capBlock(snapshot, request);
      if (!block) return;
      if (!options.settings().waitAtCap) throw capError(block, snapshot.tier.name, request);
      options.logger?.info(`Usage: ${block.window === 'hour' ? 'hourly' : 'daily'} output-token cap reached; waiting until ${block.resetsAtLabel} as stratus.usage.waitAtCap asks.`);
      options.onWait?.(block);
      // One millisecond past the reset, so the next check sees the new window.
      await sleep(Math.max(1, block.resetsAt - now() + 1), signal);
    }
  };
}
