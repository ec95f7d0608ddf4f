import { isRecord, type JsonRecord } from '../json';

/** How serious a finding is, as the Comments show it. */
export type FindingSeverity = 'error' | 'warning' | 'info';

/** One finding of a review, as the model reported it (a path and a new-file line number, 1-based). */
export interface ReviewFinding {
  readonly file: string;
  readonly line: number;
  /** The last line it concerns, when the model gave one (>= line). */
  readonly endLine?: number;
  readonly severity: FindingSeverity;
  /** What kind of finding: bug, security, tests, ... (free text, short). */
  readonly category?: string;
  readonly message: string;
  /** A fix in words or code, when the model proposed one. */
  readonly suggestion?: string;
}

/** What one answer held. */
export interface ParsedFindings {
  readonly findings: ReviewFinding[];
  /** Items that looked like findings but lacked a field or had a bad one (never silently dropped: counted). */
  readonly skipped: number;
  /** Same file, line and message as an earlier one: kept once. */
  readonly duplicates: number;
  /** The answer held no JSON at all (not even `[]`): it could not be read. */
  readonly unreadable: boolean;
}

/** A line number past this is nonsense (no source file is that long). */
const MAX_LINE = 10_000_000;
/** Findings kept from one answer; a model that loops is cut here. */
export const MAX_FINDINGS_PER_ANSWER = 200;
const MAX_MESSAGE_CHARS = 2_000;
const MAX_SUGGESTION_CHARS = 4_000;

const SEVERITY_WORDS: ReadonlyArray<[RegExp, FindingSeverity]> = [
  [/^(error|critical|blocker|high|severe|bug|security|major)$/i, 'error'],
  [/^(warning|warn|medium|moderate|minor)$/i, 'warning'],
  [/^(info|information|low|note|nit|nitpick|suggestion|hint|style|trivial)$/i, 'info'],
];

function severityOf(value: unknown): FindingSeverity | undefined {
  if (value === undefined || value === null) return 'warning';
  if (typeof value !== 'string') return undefined;
  const word = value.trim();
  for (const [pattern, severity] of SEVERITY_WORDS) if (pattern.test(word)) return severity;
  return undefined;
}

/** A whole line number from a number or a numeric string; undefined when absent or not one. */
function lineOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_LINE ? n : undefined;
}

function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/** The first of `keys` present in `item` (models name fields in several ways). */
function field(item: JsonRecord, keys: readonly string[]): unknown {
  for (const key of keys) if (item[key] !== undefined) return item[key];
  return undefined;
}

/** A finding from one JSON item, or undefined when a required field is missing or wrong. */
export function findingOf(item: unknown): ReviewFinding | undefined {
  if (!isRecord(item)) return undefined;
  const file = text(field(item, ['file', 'path', 'filename', 'filePath']), 1000);
  const line = lineOf(field(item, ['line', 'startLine', 'start_line', 'lineNumber', 'line_number']));
  const message = text(field(item, ['message', 'comment', 'description', 'issue', 'finding']), MAX_MESSAGE_CHARS);
  const severity = severityOf(field(item, ['severity', 'level', 'priority']));
  if (file === undefined || line === undefined || message === undefined || severity === undefined) return undefined;
  const end = lineOf(field(item, ['endLine', 'end_line']));
  const category = text(field(item, ['category', 'type', 'kind']), 40);
  const suggestion = text(field(item, ['suggestion', 'suggestedFix', 'suggested_fix', 'fix']), MAX_SUGGESTION_CHARS);
  return {
    file,
    line,
    ...(end !== undefined && end >= line ? { endLine: end } : {}),
    severity,
    ...(category !== undefined ? { category } : {}),
    message,
    ...(suggestion !== undefined ? { suggestion } : {}),
  };
}

function tryJson(candidate: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(candidate) as unknown };
  } catch {
    // Models leave trailing commas: one more try without them.
    try {
      return { ok: true, value: JSON.parse(candidate.replace(/,\s*([\]}])/g, '$1')) as unknown };
    } catch {
      return { ok: false };
    }
  }
}

/** The items of a parsed value: an array, `{ findings: [...] }`, or one finding object. */
function itemsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isRecord(value)) {
    const list = field(value, ['findings', 'issues', 'comments', 'results']);
    if (Array.isArray(list)) return list;
    return [value];
  }
  return undefined;
}

/** Fenced blocks (```json ... ``` or ``` ... ```), in order; an unclosed last fence runs to the end. */
function fencedBlocks(answer: string): string[] {
  const blocks: string[] = [];
  const fence = /^[ \t]*```[^\n]*\n([\s\S]*?)(?:^[ \t]*```[ \t]*$|(?![\s\S]))/gm;
  for (let m = fence.exec(answer); m; m = fence.exec(answer)) {
    blocks.push(m[1] ?? '');
    if (m[0].length === 0) fence.lastIndex++;
  }
  return blocks;
}

const isBlank = (char: string | undefined): boolean => char === ' ' || char === '\t' || char === '\n' || char === '\r';

/**
 * The bracket pairs of `text` that may open a findings array: `[` then `{` or `]` (blanks aside),
 * with the `]` that closes it, in order of their start. One forward scan with a stack: outside a
 * candidate, quotes and other brackets are prose ("Findings [2]:", `arr[i]`, "Let me know [...]");
 * inside one, JSON strings are skipped and `[`/`{` nest. A close that does not match the top of
 * the stack pops down to its opener (what it skips is left unclosed); a stray close is ignored.
 */
function candidateArrays(text: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  const stack: Array<{ at: number; char: string; candidate: boolean }> = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (stack.length === 0) {
      if (char !== '[') continue;
      let next = i + 1;
      while (isBlank(text.charAt(next))) next++;
      if (text.charAt(next) === '{' || text.charAt(next) === ']') stack.push({ at: i, char, candidate: true });
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      let next = i + 1;
      while (char === '[' && isBlank(text.charAt(next))) next++;
      stack.push({ at: i, char, candidate: char === '[' && (text.charAt(next) === '{' || text.charAt(next) === ']') });
    } else if (char === ']' || char === '}') {
      const opener = char === ']' ? '[' : '{';
      let k = stack.length - 1;
      while (k >= 0 && stack[k]?.char !== opener) k--;
      if (k < 0) continue;
      const top = stack[k];
      stack.length = k;
      if (top?.candidate) found.push({ start: top.at, end: i + 1 });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The JSON arrays of findings in prose: each candidate (candidateArrays) that parses, outermost
 * first, none inside one already read. Parsing is bounded to a few times the text's length in all,
 * so hostile nesting of arrays that do not parse stays linear.
 */
function arraysIn(text: string): unknown[] {
  const arrays: unknown[] = [];
  let budget = 4 * text.length + 1_000;
  let readTo = 0;
  for (const { start, end } of candidateArrays(text)) {
    if (start < readTo) continue;
    if (end - start > budget) continue;
    budget -= end - start;
    const parsed = tryJson(text.slice(start, end));
    if (parsed.ok && Array.isArray(parsed.value)) {
      arrays.push(parsed.value);
      readTo = end;
    }
  }
  return arrays;
}

/** The JSON values in one piece of text: the whole of it, else the arrays in it that parse, else one object per line. */
function valuesIn(body: string): unknown[] | undefined {
  const trimmed = body.trim();
  if (trimmed === '') return undefined;
  const whole = tryJson(trimmed);
  if (whole.ok) return [whole.value];
  const arrays = arraysIn(trimmed);
  if (arrays.length > 0) return arrays;
  // JSON lines: one object per line, chatter between them ignored.
  const lines: unknown[] = [];
  for (const raw of trimmed.split('\n')) {
    const line = raw.trim().replace(/^[-*]\s+/, '').replace(/,$/, '');
    if (!line.startsWith('{')) continue;
    const parsed = tryJson(line);
    lines.push(parsed.ok ? parsed.value : { unparsable: line });
  }
  return lines.length > 0 ? lines : undefined;
}

/**
 * The findings of one answer, read robustly: a fenced JSON array (or several fences), a bare
 * array, `{ "findings": [...] }`, or JSON lines; chatter around them is ignored. An item missing a
 * file, a line (a whole number from 1), a message or a known severity is counted as skipped, a
 * repeat of an earlier one as a duplicate; nothing is dropped without being counted.
 */
export function parseFindings(answer: string): ParsedFindings {
  const fenced = fencedBlocks(answer).map(valuesIn).filter((v): v is unknown[] => v !== undefined);
  const values = fenced.length > 0 ? fenced.flat() : (valuesIn(answer) ?? []);
  const items = values.flatMap((v) => itemsOf(v) ?? [v]);
  const findings: ReviewFinding[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  let duplicates = 0;
  for (const item of items) {
    const finding = findingOf(item);
    if (!finding) {
      skipped++;
      continue;
    }
    const key = findingKey(finding);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    if (findings.length >= MAX_FINDINGS_PER_ANSWER) {
      skipped++;
      continue;
    }
    seen.add(key);
    findings.push(finding);
  }
  return { findings, skipped, duplicates, unreadable: values.length === 0 };
}

/** Two findings are the same when they name the same file, line and message (case and spacing aside). */
export function findingKey(finding: Pick<ReviewFinding, 'file' | 'line' | 'message'>): string {
  return `${finding.file}\0${finding.line}\0${finding.message.toLowerCase().replace(/\s+/g, ' ')}`;
}
