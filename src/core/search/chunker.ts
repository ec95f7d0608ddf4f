/**
 * Splits a file into chunks with 1-based, inclusive line ranges, cutting on cheap syntactic
 * boundaries: a function/class/type start or a Markdown heading (strong), else a blank line (weak),
 * else a hard cut. Chunks are bounded in lines and characters; weak and hard cuts overlap a little.
 */

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

function isBlank(line: string): boolean {
  return line.trim() === '';
}

export function chunkText(path: string, text: string, options: ChunkOptions = {}): Chunk[] {
  const maxLines = Math.max(1, options.maxLines ?? 60);
  const maxChars = Math.max(1, options.maxChars ?? 2400);
  const minLines = Math.max(1, Math.min(options.minLines ?? 8, maxLines));
  const overlap = Math.max(0, Math.min(options.overlapLines ?? 2, Math.floor(maxLines / 4)));
  const markdown = isMarkdown(path);
  const lines = text.includes('\r') ? text.split(/\r?\n/) : text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const chunks: Chunk[] = [];

  const emit = (from: number, to: number): void => {
    // Trim blank lines at both ends; a chunk of blank lines only is dropped.
    let a = from;
    let b = to;
    while (a <= b && isBlank(lines[a] ?? '')) a++;
    while (b >= a && isBlank(lines[b] ?? '')) b--;
    if (a > b) return;
    chunks.push({ startLine: a + 1, endLine: b + 1, text: lines.slice(a, b + 1).join('\n') });
  };

  let start = 0;
  while (start < lines.length) {
    let chars = 0;
    let lastBlank = -1;
    let end = start; // exclusive
    let cut: { at: number; overlap: boolean } | undefined;
    while (end < lines.length) {
      const line = lines[end] ?? '';
      if (end > start && end - start >= minLines && strongBoundary(line, markdown)) {
        // A doc comment or decorator right above a declaration goes with it.
        let at = end;
        if (!markdown) while (at - 1 > start && at - start > minLines / 2 && LEADING.test(lines[at - 1] ?? '')) at--;
        cut = { at, overlap: false };
        break;
      }
      if (end > start && (end - start >= maxLines || chars + line.length + 1 > maxChars)) {
        // Prefer the last blank line in the second half of the chunk.
        if (lastBlank > start + Math.floor((end - start) / 2)) cut = { at: lastBlank + 1, overlap: false };
        else cut = { at: end, overlap: true };
        break;
      }
      if (isBlank(line)) lastBlank = end;
      chars += line.length + 1;
      end++;
    }
    if (!cut) {
      emit(start, lines.length - 1);
      break;
    }
    emit(start, cut.at - 1);
    const next = cut.overlap ? cut.at - overlap : cut.at;
    start = Math.max(start + 1, next);
  }
  return chunks;
}
