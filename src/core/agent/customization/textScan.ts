/**
 * One-pass scanners for the customization parsers (issue 40): the text of a prompt file, agent or
 * skill comes from a repository, so nothing here backtracks. Each function says which regular
 * expression it stands for and matches exactly what that expression matched (the parsers' tests
 * and the format's behaviour are unchanged); each runs in time linear in its input.
 */

const SPACE = /\s/;

/** `\s` of a regular expression, for one character. */
export function isSpace(c: string | undefined): boolean {
  return c !== undefined && SPACE.test(c);
}

/** What `.` does not match: \n, \r, U+2028, U+2029. */
function isLineTerminator(c: string | undefined): boolean {
  return c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';
}

function lastLineTerminator(s: string): number {
  for (let k = s.length - 1; k >= 0; k--) if (isLineTerminator(s[k])) return k;
  return -1;
}

/** The end of the run of `\s` starting at `at`. */
export function spacesEnd(s: string, at: number): number {
  let k = at;
  while (k < s.length && isSpace(s[k])) k++;
  return k;
}

/** `value.replace(/\s+#.*$/, '')`: a trailing ` # comment` dropped. */
export function stripComment(value: string): string {
  // `.*$` after the `#` holds no line terminator: only a `#` after the last one can start it.
  const last = lastLineTerminator(value);
  let runStart = -1;
  for (let k = 0; k < value.length; k++) {
    const c = value[k];
    if (isSpace(c)) {
      if (runStart < 0) runStart = k;
    } else {
      if (c === '#' && runStart >= 0 && k > last) return value.slice(0, runStart);
      runStart = -1;
    }
  }
  return value;
}

/** `raw.replace(/[#?].*$/, '')`: a link's `#fragment` or `?query` dropped. */
export function stripFragment(raw: string): string {
  const last = lastLineTerminator(raw);
  for (let k = last + 1; k < raw.length; k++) if (raw[k] === '#' || raw[k] === '?') return raw.slice(0, k);
  return raw;
}

/**
 * `(?:\s+(.*)|\s*)$` from `at`: the text after the spaces ('' when there is none), or undefined
 * when it does not match (a line terminator after the spaces, or no space before the text).
 */
export function valueAfterSpaces(s: string, at: number): string | undefined {
  const end = spacesEnd(s, at);
  if (end === s.length) return '';
  if (end === at) return undefined;
  for (let k = end; k < s.length; k++) if (isLineTerminator(s[k])) return undefined;
  return s.slice(end);
}

const KEY_START = /[A-Za-z_]/;
const KEY_PART = /[A-Za-z0-9_.-]/;

/**
 * `^\s{leading}([A-Za-z_][A-Za-z0-9_.-]{0,maxKey-1})\s*:(?:\s+(.*)|\s*)$`: a `key: value` line,
 * with at least one leading space when `indented`; the value is '' when there is none.
 */
export function keyValue(s: string, options: { maxKey?: number; indented?: boolean } = {}): { key: string; raw: string } | undefined {
  let k = 0;
  if (options.indented) {
    k = spacesEnd(s, 0);
    if (k === 0) return undefined;
  }
  const start = k;
  if (!KEY_START.test(s[k] ?? '')) return undefined;
  k++;
  const maxKey = options.maxKey ?? Number.POSITIVE_INFINITY;
  while (k < s.length && k - start < maxKey && KEY_PART.test(s[k] ?? '')) k++;
  const key = s.slice(start, k);
  k = spacesEnd(s, k);
  if (s[k] !== ':') return undefined;
  const raw = valueAfterSpaces(s, k + 1);
  return raw === undefined ? undefined : { key, raw };
}

/** `^\s*-(?:\s+(.*)|\s*)$`: a block list item, its text ('' when empty); undefined when the line is not one. */
export function dashItem(s: string): string | undefined {
  const k = spacesEnd(s, 0);
  if (s[k] !== '-') return undefined;
  return valueAfterSpaces(s, k + 1);
}

/** Where the text of a flow list is, between two characters: outside quotes, or inside "..." or '...'. */
export type FlowQuote = '' | '"' | "'";

/**
 * A flow list's text scanned from `from` with `quote` open: the index of the first `]` (or of a
 * nested `[`, which is not read) outside quotes, or -1 and the quote open at the end. A `\` inside
 * "..." skips the next character (at the end of a line: the space the lines are joined with).
 */
export function scanFlow(s: string, from: number, quote: FlowQuote): { end: number; quote: FlowQuote } {
  let open = quote;
  for (let k = from; k < s.length; k++) {
    const c = s[k];
    if (open !== '') {
      if (c === '\\' && open === '"') k++;
      else if (c === open) open = '';
    } else if (c === '"' || c === "'") {
      open = c;
    } else if (c === '[' || c === ']') {
      return { end: k, quote: '' };
    }
  }
  return { end: -1, quote: open };
}

const QUOTES: readonly FlowQuote[] = ['', '"', "'"];

/**
 * For a flow list that does not close on its own line: the line it closes on. Every line is
 * scanned at most once for each quote state it can start in (three), however many unclosed
 * lists start above it, so a file of `a: ["\"` lines is read in linear time.
 */
export class FlowCloser {
  private readonly memo: Int32Array[];

  constructor(private readonly lines: readonly string[], private readonly stop: number) {
    this.memo = QUOTES.map(() => new Int32Array(Math.max(0, stop)).fill(-2));
  }

  /** The first line from `start` (before `stop`) on which a list open in `quote` closes; -1 for none. */
  closingLine(start: number, quote: FlowQuote): number {
    const path: Array<{ line: number; quote: FlowQuote }> = [];
    let line = start;
    let open = quote;
    let result = -1;
    while (line < this.stop) {
      const known = this.memo[QUOTES.indexOf(open)]?.[line] ?? -2;
      if (known !== -2) {
        result = known;
        break;
      }
      path.push({ line, quote: open });
      const scan = scanFlow((this.lines[line] ?? '').trim(), 0, open);
      if (scan.end >= 0) {
        result = line;
        break;
      }
      open = scan.quote;
      line++;
    }
    for (const p of path) {
      const memo = this.memo[QUOTES.indexOf(p.quote)];
      if (memo) memo[p.line] = result;
    }
    return result;
  }
}

/**
 * `s.indexOf(c, from)` for a scan that moves forward: a `from` not past the last answer gets it
 * again, so however many times it is asked, each character is looked at about once.
 */
export function forwardIndexOf(s: string, c: string): (from: number) => number {
  let asked = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (from >= asked && (found === -1 || found >= from)) return found;
    asked = from;
    found = s.indexOf(c, from);
    return found;
  };
}

/** For each index, the first index at or after it holding `c` (-1 for none), built once. */
export function nextIndexes(s: string, c: string): Int32Array {
  const out = new Int32Array(s.length + 1);
  let next = -1;
  out[s.length] = -1;
  for (let k = s.length - 1; k >= 0; k--) {
    if (s[k] === c) next = k;
    out[k] = next;
  }
  return out;
}
