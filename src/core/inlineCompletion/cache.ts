/**
 * A bounded LRU map: reading an entry makes it the most recent; inserting beyond `maxEntries`
 * evicts the least recent. Keyed by the prompt (see promptKey), it answers a repeated request
 * without sending it.
 */
export class LruCache<V> {
  private readonly map = new Map<string, V>();

  constructor(readonly maxEntries = 100) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be an integer >= 1');
  }

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }
}

/** What is (or was last) shown as ghost text: where it was anchored and its text. */
export interface ShownSuggestion {
  /** Document identity (uri) and version-free anchor: the full text before the cursor when shown. */
  documentId: string;
  prefix: string;
  text: string;
}

/**
 * Type-ahead, as Copilot does: when the user types characters that the ghost text starts with,
 * the rest of it is still the answer, no request needed. Given the suggestion shown and the new
 * text before the cursor, returns the remaining ghost text, or undefined when the user typed
 * something else (or everything, or moved elsewhere).
 */
export function typeAhead(shown: ShownSuggestion | undefined, documentId: string, prefix: string): string | undefined {
  if (!shown || shown.documentId !== documentId) return undefined;
  if (!prefix.startsWith(shown.prefix)) return undefined;
  const typed = prefix.slice(shown.prefix.length);
  if (typed.length === 0) return shown.text;
  if (!shown.text.startsWith(typed) || typed.length >= shown.text.length) return undefined;
  const rest = shown.text.slice(typed.length);
  return rest.trim() === '' ? undefined : rest;
}
