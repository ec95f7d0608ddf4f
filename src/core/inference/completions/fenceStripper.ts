/**
 * Models often wrap an inline completion in a Markdown fence. This removes a leading
 * "```lang\n" and a trailing "```" from a stream of text deltas, holding back only as many
 * characters as could still turn out to be part of a fence.
 */
export class FenceStripper {
  private head = '';
  private headDone = false;
  private tail = '';

  /** Feeds a delta; returns the text that is certainly content. */
  push(delta: string): string {
    let text = delta;
    if (!this.headDone) {
      this.head += text;
      const trimmed = this.head.replace(/^\s+/, '');
      if (trimmed.length < 3 && '```'.startsWith(trimmed)) return '';
      if (trimmed.startsWith('```')) {
        const newline = trimmed.indexOf('\n');
        if (newline < 0) return '';
        text = trimmed.slice(newline + 1);
      } else {
        text = this.head;
      }
      this.headDone = true;
      this.head = '';
    }
    const combined = this.tail + text;
    // Hold back a possible closing fence (with its preceding newline and trailing spaces).
    const hold = combined.match(/\n?`{0,3}\s*$/)?.[0].length ?? 0;
    this.tail = combined.slice(combined.length - hold);
    return combined.slice(0, combined.length - hold);
  }

  /** Ends the stream; returns what was held back unless it was a closing fence. */
  end(): string {
    const rest = this.headDone ? this.tail : this.head;
    this.tail = '';
    this.head = '';
    return /^\n?```\s*$/.test(rest) ? '' : rest;
  }
}
