/**
 * Parses of customization files kept per file version (issue 40): diagnostics parse a prompt
 * file, agent or skill on every open and save, and every trusted @stratus turn with tools reads
 * all skills. A file's version is its text: the same text is not parsed again, a changed one is.
 * At most `max` files are kept, the least recently used leaving first.
 */
export class ParseCache<T> {
  private readonly entries = new Map<string, { readonly text: string; readonly value: T }>();

  constructor(private readonly max = 200) {}

  /** The parse of `text` for the file `key` (its URI, and anything else the parse depends on). */
  get(key: string, text: string, parse: (text: string) => T): T {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.entries.delete(key);
      if (kept.text === text) {
        this.entries.set(key, kept);
        return kept.value;
      }
    }
    const value = parse(text);
    this.entries.set(key, { text, value });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(oldest);
    }
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
