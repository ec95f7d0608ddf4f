/**
 * End-of-turn tokens some servers leak into `content` (Llama's `<|eot_id|>` / `<|eom_id|>`,
 * harmony's `<|end|>` / `<|return|>` / `<|call|>`, `<|endoftext|>`). The format puts them at the
 * answer's end only, so only there are they dropped: one inside the answer (a chat template, a
 * tokenizer's code) is text, shown as written.
 */
export const END_TOKENS: readonly string[] = ['<|eot_id|>', '<|eom_id|>', '<|end|>', '<|return|>', '<|call|>', '<|endoftext|>'];

/** Returned by endTokenAt when `s` ends with the start of an end token. */
export const PARTIAL = 'partial';

/** The end token that starts at `at` in `s`; '' when none does; PARTIAL when `s` ends with the start of one. */
export function endTokenAt(s: string, at: number): string {
  if (s.charCodeAt(at) !== 60 /* < */) return '';
  for (const token of END_TOKENS) if (s.startsWith(token, at)) return token;
  if (s.length - at < 14) {
    const tail = s.slice(at);
    if (END_TOKENS.some((t) => t.startsWith(tail))) return PARTIAL;
  }
  return '';
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * Drops end tokens at the end of an answer: the run of spaces and end tokens after the last
 * other character is held back until more text shows it was not the end (then shown as it
 * came), or the answer ends (then its tokens are dropped, its spaces kept). One forward scan:
 * each character is looked at once (a fragment that may start a token, at most twice).
 */
export class TrailingEndTokens {
  /** Spaces and whole end tokens after the last shown character (not shown yet). */
  private held = '';
  /** The start of what may be an end token, at the very end. */
  private partial = '';
  /** The held run holds an end token (not only spaces). */
  private heldToken = false;

  constructor(private readonly show: (text: string) => void) {}

  push(delta: string): void {
    if (this.held === '' && this.partial === '' && delta.indexOf('<') < 0) {
      if (delta) this.show(delta);
      return;
    }
    const s = this.partial + delta;
    this.partial = '';
    let runFrom = 0;
    let end = s.length;
    let token = this.heldToken;
    for (let i = 0; i < s.length; ) {
      const c = s.charCodeAt(i);
      if (isSpace(c)) {
        i++;
        continue;
      }
      const found = endTokenAt(s, i);
      if (found === PARTIAL) {
        end = i;
        break;
      }
      if (found !== '') {
        token = true;
        i += found.length;
        continue;
      }
      token = false;
      // Text: the run before it was not the answer's end.
      if (this.held) {
        this.show(this.held);
        this.held = '';
      }
      i++;
      runFrom = i;
    }
    if (runFrom > 0) this.show(s.slice(0, runFrom));
    this.held += s.slice(runFrom, end);
    this.partial = s.slice(end);
    this.heldToken = token;
    if (this.partial === '' && !token && this.held) {
      // Only spaces: shown as they come.
      this.show(this.held);
      this.held = '';
    }
  }

  /** The answer ended: the held end tokens are dropped, the spaces around them kept. */
  flush(): void {
    let out = '';
    const held = this.held;
    for (let i = 0; i < held.length; ) {
      const token = endTokenAt(held, i);
      if (token !== '' && token !== PARTIAL) {
        i += token.length;
        continue;
      }
      out += held[i];
      i++;
    }
    out += this.partial;
    this.held = '';
    this.partial = '';
    this.heldToken = false;
    if (out) this.show(out);
  }

  /** The stream failed: what is held arrived, and is shown as it came. */
  release(): void {
    const held = this.held + this.partial;
    this.held = '';
    this.partial = '';
    this.heldToken = false;
    if (held) this.show(held);
  }
}
