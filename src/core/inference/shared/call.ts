/** Per-call options every endpoint accepts. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the transport's time-to-first-byte timeout for this call. */
  firstByteTimeoutMs?: number;
  /** Overrides the transport's longest silence inside a streamed answer for this call (chat and completions). */
  idleTimeoutMs?: number;
  /** `false`: send once, never retried (chat and completions). */
  retry?: false;
  /**
   * What the request is for, read by the usage meter (src/core/usage/metering.ts): an `inline`
   * completion is metered as kind `completion` rather than `chat`, an `edit` (edit by
   * instruction) as kind `edit`, an `ocr` chat request (a page read by src/core/documents) as kind
   * `ocr`, a `commit` message request as kind `commit`, a next edit suggestion as kind `nextEdit`, a review of changes as kind `review`.
   * An `inline` or `nextEdit` call also gets the transport settings of INLINE_CALL unless it sets
   * its own (both are stale before a retry could answer). Never sent.
   */
  purpose?: 'chat' | 'inline' | 'edit' | 'ocr' | 'commit' | 'nextEdit' | 'review' | undefined;
  /**
   * Extra body fields for chat and completions (gateway settings, reasoning effort), least
   * specific first; merged under the request's own fields by `mergeUnder` (extraBody.ts).
   */
  extraBody?: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/**
 * Ghost text is stale by the time a retry could answer (the user typed on): an inline completion
 * is sent once, and gives up after a short wait for its first byte or a short silence mid-answer
 * rather than the transport's 60 s. The engine's back-off then pauses quietly.
 */
export const INLINE_CALL = { firstByteTimeoutMs: 4_000, idleTimeoutMs: 3_000, retry: false } as const;

/**
 * The per-request transport overrides a call asks for: its own, else its purpose's, else the
 * endpoint's `fallback`.
 */
export function callTransport(options: CallOptions, fallback: Pick<CallOptions, 'firstByteTimeoutMs'> = {}): { timeouts?: { firstByteMs?: number; idleMs?: number }; retry?: false } {
  const purpose: Pick<CallOptions, 'firstByteTimeoutMs' | 'idleTimeoutMs' | 'retry'> = options.purpose === 'inline' || options.purpose === 'nextEdit' ? INLINE_CALL : {};
  const firstByteMs = options.firstByteTimeoutMs ?? purpose.firstByteTimeoutMs ?? fallback.firstByteTimeoutMs;
  const idleMs = options.idleTimeoutMs ?? purpose.idleTimeoutMs;
  const retry = options.retry ?? purpose.retry;
  const timeouts = { ...(firstByteMs ? { firstByteMs } : {}), ...(idleMs ? { idleMs } : {}) };
  return { ...(Object.keys(timeouts).length > 0 ? { timeouts } : {}), ...(retry === false ? { retry } : {}) };
}

/** The Network Activity view's name for a call: its purpose, as the usage meter names it (metering.ts). */
export function callFeature(options: CallOptions): { feature?: string } {
  const feature = options.purpose === 'inline' ? 'completion' : options.purpose;
  return feature ? { feature } : {};
}
