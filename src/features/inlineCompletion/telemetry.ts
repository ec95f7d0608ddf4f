/** Size of a suggestion, as the usage view counts it. */
export interface SuggestionSize {
  chars: number;
  lines: number;
}

/**
 * Where inline completion reports what it did, for the usage view's acceptance statistics. The
 * composition root connects it to the usage store; until then the default records nothing.
 */
export interface CompletionTelemetrySink {
  /** A suggestion became ghost text (from the network or the cache; type-ahead is the same one). */
  shown(n: SuggestionSize): void;
  /** The user accepted a suggestion with Tab. */
  accepted(n: SuggestionSize): void;
  /** A completion request was sent. */
  requested(): void;
}

export const noopTelemetrySink: CompletionTelemetrySink = {
  shown: () => undefined,
  accepted: () => undefined,
  requested: () => undefined,
};

export function sizeOf(text: string): SuggestionSize {
  return { chars: text.length, lines: text.split('\n').length };
}
