/** Per-call options every endpoint accepts. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the transport's time-to-first-byte timeout for this call. */
  firstByteTimeoutMs?: number;
}
