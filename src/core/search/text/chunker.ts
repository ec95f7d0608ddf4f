/**
 * Splits a file into chunks with 1-based, inclusive line ranges, cutting on cheap syntactic
 * boundaries: a function/class/type start or a Markdown heading (strong), else a blank line (weak),
 * else a hard cut. Chunks are bounded in lines and characters; weak and hard cuts overlap a little.
 */

import { nextLineAt } from './chunkScan';

export interface Chunk {
  /** 1-based first line. */
  startLine: number;
  /** 1-based last line, inclusive. */
  endLine: number;
  text: string;
}

export interface ChunkOptions {
  /** Most lines in a chunk. Default 60. */
  maxLines?: number;
  /** Most characters in a chunk (a single longer line stays whole). Default 2400. */
  maxChars?: number;
  /** A strong boundary starts a new chunk once the current one has this many lines. Default 8. */
  minLines?: number;
  /** Lines repeated at the start of the next chunk after a weak or hard cut. Default 2. */
  overlapLines?: number;
}

const CODE_START =
  /^\s{0,8}(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:pub(?:\([a-z]+\))?\s+)?(?:function\*?|class|interface|type|enum|def|fn|func|impl|struct|trait|module|namespace|package)\s+[A-Za-z_$]/;
const MEMBER_START = /^\s{2,8}(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*(?:#?[A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$/;
const ASSIGNED_FUNCTION = /^\s{0,4}(?:export\s+)?(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|[A-Za-z_$][\w$]*\s*=>)/;
const HEADING = /^#{1,6}\s/;
/** Lines that belong to the declaration below them: comments, doc comments, decorators. */
const LEADING = /^\s*(?:\/\/|\/\*|\*|@[A-Za-z]|#(?!include)|--|;;)/;
const KEYWORDS = /^(?:if|for|while|switch|catch|return|else|do|try|with)$/;

function isMarkdown(path: string): boolean {
  return /\.(?:md|markdown|mdx|rst|txt)$/i.test(path);
}

function strongBoundary(line: string, markdown: boolean): boolean {
  if (markdown) return HEADING.test(line);
  if (CODE_START.test(line) || ASSIGNED_FUNCTION.test(line)) return true;
  const member = MEMBER_START.exec(line);
  if (!member) return false;
  const name = /^\s*(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*#?([A-Za-z_$][\w$]*)/.exec(line)?.[1] ?? '';
  return !KEYWORDS.test(name);
}

/** Whether `text[from, to)` is blank (what `trim() === ''` says), without slicing it. */
function isBlankRange(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128) return false;
    return text.slice(i, to).trim() === '';
  }
  return true;
}

/**
 * Whether the line starting at `from` may be a strong boundary: a cheap test on its first
 * non-blank character (a letter, `_`, `$`, `#`; anything unusual is left to the regexes), so the
 * line is only sliced and matched when it can match.
 */
function mayStartDeclaration(text: string, from: number, to: number, markdown: boolean): boolean {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) break;
    i++;
  }
  if (i >= to) return false;
  const c = text.charCodeAt(i);
  if (markdown) return c === 35 || c >= 128 || (c >= 11 && c <= 13); // #, or unusual blanks
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 35) return true;
  return c >= 128 || (c >= 11 && c <= 13);
}

/** First words a CODE_START or ASSIGNED_FUNCTION line can begin with. */
const DECLARATION_WORDS = new Set(['export', 'default', 'declare', 'abstract', 'async', 'pub', 'function', 'class', 'interface', 'type', 'enum', 'def', 'fn', 'func', 'impl', 'struct', 'trait', 'module', 'namespace', 'package', 'const', 'let', 'var']);

const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;

/**
 * Whether a code line that passed `mayStartDeclaration` can match the boundary regexes at all:
 * CODE_START and ASSIGNED_FUNCTION need one of DECLARATION_WORDS first (a `const`, `let` or `var`
 * line also needs `=>` or `function`), MEMBER_START a `{` last. Most lines (statements, calls,
 * comments) are then decided without running the three regexes. Anything unusual says yes.
 */
function mayMatchCodeBoundary(text: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  let j = i;
  while (j < to && isWordChar(text.charCodeAt(j))) j++;
  if (j === i) return true;
  const word = text.slice(i, j);
  if (DECLARATION_WORDS.has(word)) {
    if (word !== 'const' && word !== 'let' && word !== 'var') return true;
    const rest = text.slice(j, to);
    if (rest.includes('=>') || rest.includes('function')) return true;
  }
  let k = to - 1;
  while (k > j && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k--;
  const last = text.charCodeAt(k);
  return last === 123 || last >= 128 || (last >= 10 && last <= 13);
}

/** A chunk as offsets into the file's text (what the indexer reads, without copying the text). */
export interface ChunkRange {
  /** 1-based first line. */
  startLine: number;
  /** 1-based last line, inclusive. */
  endLine: number;
  /** Offset of the first line's first character. */
  start: number;
  /** Offset just past the last line's last character (its line break excluded). */
  end: number;
}

/** The array `lineBounds` fills (reused: one file after another, no allocation per file)... */
let lineScratch = new Int32Array(2 * 4096);
/** ...grown up to this many lines and kept (512 KB); a longer file's array is its own. */
const KEPT_LINES = 1 << 16;

/**
 * Line starts and ends (line breaks excluded: `\r\n`, `\r` or `\n`) of a text, as one array: [s0, e0, s1, e1, ...].
 * The array is shared: valid until the next call.
 */
function lineBounds(text: string): { bounds: Int32Array; count: number } {
  let bounds = lineScratch;
  let cap = bounds.length / 2;
  let count = 0;
  let from = 0;
  const n = text.length;
  // A `\r` alone also ends a line (old Mac files), as in editors and ripgrep.
  let cr = text.indexOf('\r');
  // Each break is searched for once, not once per line (a file of `\r` breaks has no `\n` to find).
  let nl = text.indexOf('\n');
  while (from < n) {
    if (nl >= 0 && nl < from) nl = text.indexOf('\n', from);
    const lineEnd = nl < 0 ? n : nl;
    let end = nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : lineEnd;
    let next = nl < 0 ? -1 : nl + 1;
    if (cr >= 0 && cr < from) cr = text.indexOf('\r', from);
    if (cr >= 0 && cr < end) {
      end = cr;
      next = nextLineAt(text, cr);
    }
    if (count === cap) {
      cap *= 2;
      const grown = new Int32Array(cap * 2);
      grown.set(bounds);
      bounds = grown;
      if (cap <= KEPT_LINES) lineScratch = grown;
    }
    bounds[2 * count] = from;
    bounds[2 * count + 1] = end;
    count++;
    if (next < 0 || next >= n) break;
    from = next;
  }
  return { bounds, count };
}

export function chunkText(path: string, text: string, options: ChunkOptions = {}): Chunk[] {
  const ranges = chunkRanges(path, text, options);
  const cr = text.includes('\r');
  return ranges.map((r) => {
    const slice = text.slice(r.start, r.end);
    return { startLine: r.startLine, endLine: r.endLine, text: cr ? slice.replace(/\r\n?/g, '\n') : slice };
  });
}

/** The chunks of a file as line ranges and text offsets (see `chunkText`). */
export function chunkRanges(path: string, text: string, options: ChunkOptions = {}): ChunkRange[] {
  const maxLines = Math.max(1, options.maxLines ?? 60);
  const maxChars = Math.max(1, options.maxChars ?? 2400);
  const minLines = Math.max(1, Math.min(options.minLines ?? 8, maxLines));
  const overlap = Math.max(0, Math.min(options.overlapLines ?? 2, Math.floor(maxLines / 4)));
  const markdown = isMarkdown(path);
  const { bounds, count } = lineBounds(text);
  const ls = (k: number): number => bounds[2 * k] ?? 0;
  const le = (k: number): number => bounds[2 * k + 1] ?? 0;
  const blank = (k: number): boolean => isBlankRange(text, ls(k), le(k));
  const line = (k: number): string => text.slice(ls(k), le(k));
  const chunks: ChunkRange[] = [];

  const emit = (from: number, to: number): void => {
    // Trim blank lines at both ends; a chunk of blank lines only is dropped.
    let a = from;
    let b = to;
    while (a <= b && blank(a)) a++;
    while (b >= a && blank(b)) b--;
    if (a > b) return;
    chunks.push({ startLine: a + 1, endLine: b + 1, start: ls(a), end: le(b) });
  };

  let start = 0;
  while (start < count) {
    let chars = 0;
    let lastBlank = -1;
    let end = start; // exclusive
    let cut: { at: number; overlap: boolean } | undefined;
    while (end < count) {
      const length = le(end) - ls(end);
      if (end > start && end - start >= minLines && mayStartDeclaration(text, ls(end), le(end), markdown) && (markdown || mayMatchCodeBoundary(text, ls(end), le(end))) && strongBoundary(line(end), markdown)) {
        // A doc comment or decorator right above a declaration goes with it.
        let at = end;
        if (!markdown) while (at - 1 > start && at - start > minLines / 2 && LEADING.test(line(at - 1))) at--;
        cut = { at, overlap: false };
        break;
      }
      if (end > start && (end - start >= maxLines || chars + length + 1 > maxChars)) {
        // Prefer the last blank line in the second half of the chunk.
        if (lastBlank > start + Math.floor((end - start) / 2)) cut = { at: lastBlank + 1, overlap: false };
        else cut = { at: end, overlap: true };
        break;
      }
      if (blank(end)) lastBlank = end;
      chars += length + 1;
      end++;
    }
    if (!cut) {
      emit(start, count - 1);
      break;
    }
    emit(start, cut.at - 1);
    const next = cut.overlap ? cut.at - overlap : cut.at;
    start = Math.max(start + 1, next);
  }
  return chunks;
}
