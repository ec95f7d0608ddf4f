/**
 * Whether the end of the Markdown seen so far is inside code: a fence (a line starting, after at
 * most three spaces, with three or more backticks or tildes, until a line starting with at least
 * as many of the same) or an inline code span (a run of backticks, until a run of the same length
 * or a blank line). Fed one character at a time, in one forward pass: what a model quotes in code
 * is never read as a call or a marker (textToolCalls.ts).
 */
export class MarkdownCode {
  private fence: { char: number; length: number } | undefined;
  /** Length of the backtick run that opened the inline span; 0: none. */
  private span = 0;
  private lineStart = true;
  /** Spaces since the start of the line, while only spaces were seen on it. */
  private lead = 0;
  private lineBlank = true;
  /** A run of backticks or tildes not yet decided (the next other character decides it). */
  private runChar = 0;
  private runLength = 0;
  private runAtLineStart = false;

  /** At the start of a line (only up to three spaces before), outside any code: where a fence may open. */
  get atLineStart(): boolean {
    return this.lineStart && this.lead <= 3 && this.outside;
  }

  /** Not inside a fence or an inline code span (a run of backticks just seen counted as ended). */
  get outside(): boolean {
    const { fence, span } = this.settled();
    return fence === undefined && span === 0;
  }

  feedText(text: string): void {
    for (let i = 0; i < text.length; i++) this.feed(text.charCodeAt(i));
  }

  feed(c: number): void {
    if (c === 96 /* ` */ || c === 126 /* ~ */) {
      if (this.runLength > 0 && this.runChar !== c) this.settle();
      if (this.runLength === 0) {
        this.runChar = c;
        this.runAtLineStart = this.lineStart && this.lead <= 3;
      }
      this.runLength++;
      this.lineStart = false;
      this.lineBlank = false;
      return;
    }
    this.settle();
    if (c === 10 /* \n */) {
      // A blank line ends a paragraph, and with it an inline span left open.
      if (this.lineBlank) this.span = 0;
      this.lineStart = true;
      this.lineBlank = true;
      this.lead = 0;
      return;
    }
    if (c === 32 /* space */ || c === 9 /* tab */ || c === 13 /* \r */) {
      if (this.lineStart) this.lead += c === 9 ? 4 : c === 32 ? 1 : 0;
      return;
    }
    this.lineStart = false;
    this.lineBlank = false;
  }

  private settle(): void {
    if (this.runLength === 0) return;
    const { fence, span } = this.settled();
    this.fence = fence;
    this.span = span;
    this.runLength = 0;
  }

  /** The state once the pending run of backticks or tildes (if any) has ended. */
  private settled(): { fence: { char: number; length: number } | undefined; span: number } {
    const { fence, span, runLength: length, runChar: c } = this;
    if (length === 0) return { fence, span };
    if (fence) return { fence: this.runAtLineStart && c === fence.char && length >= fence.length ? undefined : fence, span };
    if (span > 0) return { fence, span: c === 96 && length === span ? 0 : span };
    if (this.runAtLineStart && length >= 3) return { fence: { char: c, length }, span };
    return { fence, span: c === 96 ? length : span };
  }
}
