const OPEN = '<think>';
const CLOSE = '</think>';

export type ThinkSink = (kind: 'text' | 'thinking', text: string) => void;

/**
 * Whether `s` contains '<'. Deltas are mostly a few characters, where a plain loop is cheaper
 * than the call into `indexOf`; long ones still get `indexOf`.
 */
function hasLt(s: string): boolean {
  const n = s.length;
  if (n > 32) return s.indexOf('<') >= 0;
  for (let i = 0; i < n; i++) {
    if (s.charCodeAt(i) === 60 /* < */) return true;
  }
  return false;
}

/** Length of the longest end of `s` that could be the start of `tag` (a tag split across deltas). */
function partialTagSuffix(s: string, tag: string): number {
  const from = Math.max(0, s.length - tag.length + 1);
  const lt = s.indexOf('<', from);
  if (lt < 0) return 0;
  for (let i = lt; i < s.length; i++) {
    if (s.charCodeAt(i) === 60 /* < */ && tag.startsWith(s.slice(i))) return s.length - i;
  }
  return 0;
}

/**
 * Separates `<think>...</think>` blocks from the answer in streamed content, including tags split
 * across deltas: a trailing fragment that may be the start of a tag is held back until the next
 * delta decides it. Whitespace right after a closing tag is dropped so the answer starts cleanly.
 */
export class ThinkSplitter {
  private inThink = false;
  private pending = '';
  private trimStart = false;

  constructor(private readonly sink: ThinkSink) {}

  /** A `<think>` block was opened and not closed (so far): the answer may be inside it, cut. */
  get open(): boolean {
    return this.inThink;
  }

  push(delta: string): void {
    // Hot path: plain answer text, nothing held back, no tag in sight.
    if (!this.inThink && !this.trimStart && this.pending === '' && !hasLt(delta)) {
      if (delta !== '') this.sink('text', delta);
      return;
    }
    let s = this.pending ? this.pending + delta : delta;
    this.pending = '';
    // No tag in sight, after a held-back fragment or a closing tag.
    if (!this.inThink && s.indexOf('<') < 0) {
      this.emit('text', s);
      return;
    }
    while (s) {
      const tag = this.inThink ? CLOSE : OPEN;
      const at = s.indexOf(tag);
      if (at >= 0) {
        this.emit(this.inThink ? 'thinking' : 'text', s.slice(0, at));
        s = s.slice(at + tag.length);
        this.inThink = !this.inThink;
        if (!this.inThink) this.trimStart = true;
        continue;
      }
      const keep = partialTagSuffix(s, tag);
      this.emit(this.inThink ? 'thinking' : 'text', s.slice(0, s.length - keep));
      this.pending = s.slice(s.length - keep);
      return;
    }
  }

  /** Emits a held-back fragment at the end of the stream: it was not a tag after all. */
  flush(): void {
    const rest = this.pending;
    this.pending = '';
    this.emit(this.inThink ? 'thinking' : 'text', rest);
  }

  private emit(kind: 'text' | 'thinking', text: string): void {
    let out = text;
    if (kind === 'text' && this.trimStart) {
      out = out.replace(/^\s+/, '');
      if (out) this.trimStart = false;
    }
    if (out) this.sink(kind, out);
  }
}

/** Splits a complete content string into answer and thinking. */
export function splitThinking(content: string): { text: string; thinking: string } {
  const { text, thinking } = splitContent(content);
  return { text, thinking };
}

/** splitThinking, and whether a `<think>` block was left open (the answer cut inside it). */
export function splitContent(content: string): { text: string; thinking: string; open: boolean } {
  let text = '';
  let thinking = '';
  const splitter = new ThinkSplitter((kind, chunk) => {
    if (kind === 'text') text += chunk;
    else thinking += chunk;
  });
  splitter.push(content);
  splitter.flush();
  return { text, thinking, open: splitter.open };
}
