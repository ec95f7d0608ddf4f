/** Per-call options every endpoint accepts. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the transport's time-to-first-byte timeout for this call. */
  firstByteTimeoutMs?: number;
  /**
   * What the request is for, read only by the usage meter (src/core/usage/metering.ts): an
   * `inline` completion is metered as kind `completion` rather than `chat`, an `edit` (edit by
   * instruction) as kind `edit`, an `ocr` chat request (a page read by src/core/documents) as kind
   * `ocr`, a `commit` message request as kind `commit`. Never sent.
   */
  purpose?: 'chat' | 'inline' | 'edit' | 'ocr' | 'commit' | undefined;
}
