import { FenceStripper } from '../inference/completions/fenceStripper';

/**
 * Post-processing of a streamed rewrite, line by line: a leading Markdown fence is stripped by the
 * completion path's FenceStripper; what a chatty model adds around the code (a "Here is the updated
 * code:" line, a fence after it, a closing fence and the explanation after it) is dropped; and the
 * indentation is moved onto the range's when the model dropped it. Lines come out as soon as they
 * are decided; `partial()` is the line in progress, once it can no longer be chatter.
 */

const FENCE_OPEN = /^\s*(```|~~~)[\w+#.-]*\s*$/;
const FENCE_CLOSE = /^\s*(```|~~~)\s*$/;
const CHATTER = /^(here(?:'s| is| are)|sure\b|certainly\b|of course\b|okay\b|ok\b|below is|the (?:rewritten|updated|modified|refactored|new) |i (?:have|'ve)\b)/i;

type State = 'start' | 'fenced' | 'plain' | 'done';

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

export class EditLineFilter {
  private readonly fences = new FenceStripper();
  private state: State = 'start';
  private buffer = '';
  /** The model's indentation of its first line and the range's, when they differ. */
  private shift: { from: string; to: string } | undefined | null = null;

  /**
   * @param rangeIndent the indentation of the range's first non-blank line
   * @param rangeTrailingBlanks how many blank lines end the range (kept if the model keeps them)
   */
  constructor(
    private readonly rangeIndent: string,
    private readonly rangeTrailingBlanks = 0,
  ) {}

  /** Feeds a delta; returns the lines it completed (post-processed). */
  push(delta: string): string[] {
    this.buffer += this.fences.push(delta);
    return this.drain();
  }

  /** Ends the stream; returns the last lines. */
  end(): string[] {
    this.buffer += this.fences.end();
    const out = this.drain();
    if (this.buffer !== '') {
      const last = this.buffer;
      this.buffer = '';
      this.emit(this.decide(last), out);
    }
    // Blank lines after the code: as many as the range itself ended with, no more.
    for (let k = 0; k < Math.min(this.heldBlanks, this.rangeTrailingBlanks); k++) out.push('');
    this.heldBlanks = 0;
    return out;
  }

  /** Blank lines held back: emitted before the next line, dropped at the end. */
  private heldBlanks = 0;

  private emit(line: string | undefined, out: string[]): void {
    if (line === undefined) return;
    if (line.trim() === '') {
      this.heldBlanks++;
      return;
    }
    for (; this.heldBlanks > 0; this.heldBlanks--) out.push('');
    out.push(line);
  }

  /** The line in progress, post-processed; undefined while it could still be chatter or a fence. */
  partial(): string | undefined {
    if (this.state === 'done' || this.buffer.trim() === '') return undefined;
    const text = this.buffer;
    if (/^\s*(`|~)/.test(text)) return undefined;
    if (this.state === 'start' && (CHATTER.test(text) || /^[A-Za-z]+$/.test(text.trim()))) return undefined;
    return this.reindent(text);
  }

  private drain(): string[] {
    const out: string[] = [];
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.emit(this.decide(line), out);
      newline = this.buffer.indexOf('\n');
    }
    return out;
  }

  /** A complete line: the text to emit, or undefined to drop it. */
  private decide(line: string): string | undefined {
    switch (this.state) {
      case 'done':
        return undefined;
      case 'start':
        if (line.trim() === '') return undefined;
        if (FENCE_OPEN.test(line)) {
          this.state = 'fenced';
          return undefined;
        }
        if (CHATTER.test(line)) return undefined;
        this.state = 'plain';
        return this.reindent(line);
      case 'fenced':
      case 'plain':
        if (FENCE_CLOSE.test(line) || (this.state === 'plain' && FENCE_OPEN.test(line))) {
          this.state = 'done';
          return undefined;
        }
        return this.reindent(line);
    }
  }

  /**
   * The range's indentation is kept: when the model's first line is indented less than the range
   * (it dropped the indentation of a nested block), every line's leading `from` becomes `to`.
   */
  private reindent(line: string): string {
    if (this.shift === null && line.trim() !== '') {
      const from = indentOf(line);
      // Only a model that dropped the range's indentation is corrected (a rewrite may start deeper).
      this.shift = from.length < this.rangeIndent.length && this.rangeIndent.startsWith(from) ? { from, to: this.rangeIndent } : undefined;
    }
    const shift = this.shift;
    if (!shift || line.trim() === '') return line;
    if (line.startsWith(shift.from)) return shift.to + line.slice(shift.from.length);
    return line;
  }
}
