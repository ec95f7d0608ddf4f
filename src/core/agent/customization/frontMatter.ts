/**
 * The YAML front matter of a customization file (prompt file, custom agent, skill), read strictly
 * enough to report what is wrong and where: a first line `---`, `key: value` lines up to the
 * next `---`. Values are scalars (plain, "double" or 'single' quoted), flow lists (`[a, "b"]`,
 * also spread over lines), block lists (`- a`, indented or at the key's own indentation), block
 * lists of small maps (`- label: x` / `  agent: y`, for `handoffs`) and block scalars (`|`, `>`)
 * at the top level. Anchors, tags, block scalars inside a list and deeper nesting are reported,
 * never evaluated. A key whose value cannot be read is `unreadable`: a reader fails closed on it
 * (`tools` gives no tool rather than all). Lines are 0-based (as VS Code ranges).
 */

import { dashItem, FlowCloser, keyValue, scanFlow, stripComment } from './textScan';

export type FrontMatterItem = string | Readonly<Record<string, string>>;
export type FrontMatterValue = string | readonly FrontMatterItem[];

export interface FrontMatterEntry {
  readonly value: FrontMatterValue;
  /** The line of its key. */
  readonly line: number;
}

/** What is wrong with a customization file; the feature turns each kind into a localised message. */
export type CustomizationProblem = { readonly line: number; readonly severity: 'error' | 'warning' } & (
  | { readonly kind: 'unclosed' }
  | { readonly kind: 'syntax'; readonly text: string }
  | { readonly kind: 'indented' }
  | { readonly kind: 'unsupported'; readonly text: string }
  | { readonly kind: 'unclosedQuote' }
  | { readonly kind: 'duplicate'; readonly key: string }
  | { readonly kind: 'unknownKey'; readonly key: string; readonly known: string }
  | { readonly kind: 'expectedText'; readonly key: string }
  | { readonly kind: 'expectedList'; readonly key: string }
  | { readonly kind: 'expectedBoolean'; readonly key: string }
  | { readonly kind: 'missing'; readonly key: string }
  | { readonly kind: 'tooLong'; readonly key: string; readonly max: number }
  | { readonly kind: 'handoffMissing'; readonly index: number; readonly key: string }
  | { readonly kind: 'badSkillName'; readonly name: string }
  | { readonly kind: 'nameMismatch'; readonly name: string; readonly folder: string }
  | { readonly kind: 'unknownTool'; readonly tool: string }
  | { readonly kind: 'unknownVariable'; readonly name: string }
  | { readonly kind: 'tooLarge'; readonly maxBytes: number }
);

export interface ParsedFrontMatter {
  /** Whether the file starts with a front matter (closed or not). */
  readonly present: boolean;
  readonly entries: ReadonlyMap<string, FrontMatterEntry>;
  /** Keys that are present but whose value could not be read (a problem says why). */
  readonly unreadable: ReadonlySet<string>;
  readonly body: string;
  /** The line the body starts on. */
  readonly bodyLine: number;
  readonly problems: readonly CustomizationProblem[];
}

/** A top-level key: at most 64 characters. */
const MAX_KEY = 64;
const BLOCK_SCALAR = /^[|>][+-]?$/;

type Scalar = { ok: true; value: string } | { ok: false; problem: 'unclosedQuote' | 'unsupported' };

/** One scalar: quoted (with its escapes) or plain (a trailing ` # comment` dropped). */
export function parseScalar(raw: string): Scalar {
  const value = raw.trim();
  if (value.startsWith('"')) {
    const match = /^"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(value);
    if (!match) return { ok: false, problem: 'unclosedQuote' };
    return { ok: true, value: (match[1] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)) };
  }
  if (value.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(value);
    if (!match) return { ok: false, problem: 'unclosedQuote' };
    return { ok: true, value: (match[1] ?? '').replace(/''/g, "'") };
  }
  if (/^[&*!{]/.test(value)) return { ok: false, problem: 'unsupported' };
  return { ok: true, value: stripComment(value) };
}

/**
 * Where the flow list that `raw` starts (`[`) closes: the index of its `]` and whether something
 * other than a ` # comment` follows it; -1 when it does not close in `raw`.
 */
function flowListEnd(raw: string): { end: number; trailing: boolean } {
  const { end } = scanFlow(raw, 1, '');
  if (end < 0) return { end: -1, trailing: false };
  if (raw[end] === '[') return { end, trailing: true }; // a nested list: not read
  const rest = raw.slice(end + 1);
  return { end, trailing: !(rest.trim() === '' || /^\s+#/.test(rest)) };
}

/** `[a, "b, c", 'd']` as its items (commas inside quotes kept). */
function parseFlowList(raw: string): string[] | 'unclosedQuote' | 'unsupported' {
  const inner = raw.trim().slice(1, -1);
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const c of inner) {
    if (quote) {
      current += c;
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ',') {
      items.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  if (quote) return 'unclosedQuote';
  if (current.trim() !== '' || items.length > 0) items.push(current);
  const out: string[] = [];
  for (const item of items) {
    if (item.trim() === '') continue;
    const scalar = parseScalar(item);
    if (!scalar.ok) return scalar.problem;
    out.push(scalar.value.trim());
  }
  return out;
}

interface Collector {
  problems: CustomizationProblem[];
}

function problem(c: Collector, p: CustomizationProblem): void {
  c.problems.push(p);
}

/** The lines under `key:` as a block list (scalars or small maps). */
function parseBlockList(lines: readonly string[], first: number, c: Collector): FrontMatterItem[] {
  const items: FrontMatterItem[] = [];
  let map: Record<string, string> | undefined;
  // The indentation of a nested block scalar's line: the lines indented deeper are its text, skipped.
  let skipDeeperThan: number | undefined;
  lines.forEach((line, k) => {
    const at = first + k;
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    if (skipDeeperThan !== undefined && indent > skipDeeperThan) return;
    skipDeeperThan = undefined;
    const dash = dashItem(line);
    if (dash !== undefined) {
      const rest = dash.trim();
      map = undefined;
      const pair = keyValue(rest);
      if (rest === '' || (pair && !rest.startsWith('"') && !rest.startsWith("'"))) {
        map = {};
        items.push(map);
        if (pair && nestedBlockScalar(pair.raw, rest, at, c)) skipDeeperThan = indent;
        else if (pair) addPair(map, pair.key, pair.raw, at, c);
        return;
      }
      if (nestedBlockScalar(rest, rest, at, c)) {
        skipDeeperThan = indent;
        return;
      }
      const scalar = parseScalar(rest);
      if (scalar.ok) items.push(scalar.value);
      else problem(c, scalar.problem === 'unclosedQuote' ? { kind: 'unclosedQuote', line: at, severity: 'error' } : { kind: 'unsupported', text: rest, line: at, severity: 'error' });
      return;
    }
    const pair = keyValue(line, { indented: true });
    if (pair && map && nestedBlockScalar(pair.raw, line.trim(), at, c)) skipDeeperThan = indent;
    else if (pair && map) addPair(map, pair.key, pair.raw, at, c);
    else problem(c, { kind: 'syntax', text: line.trim(), line: at, severity: 'error' });
  });
  return items;
}

/** A `|` or `>` inside a list (its text is not read): reported, so the value is missing rather than `|`. */
function nestedBlockScalar(raw: string, text: string, line: number, c: Collector): boolean {
  if (!BLOCK_SCALAR.test(stripComment(raw).trim())) return false;
  problem(c, { kind: 'unsupported', text, line, severity: 'error' });
  return true;
}

function addPair(map: Record<string, string>, key: string, raw: string, line: number, c: Collector): void {
  if (Object.prototype.hasOwnProperty.call(map, key)) {
    problem(c, { kind: 'duplicate', key, line, severity: 'error' });
    return;
  }
  const scalar = parseScalar(raw);
  if (scalar.ok) map[key] = scalar.value;
  else problem(c, scalar.problem === 'unclosedQuote' ? { kind: 'unclosedQuote', line, severity: 'error' } : { kind: 'unsupported', text: raw.trim(), line, severity: 'error' });
}

/** `|` keeps the lines, `>` folds them into one (the indentation of the first line removed). */
function blockScalar(style: string, lines: readonly string[]): string {
  const content = lines.slice();
  while (content.length > 0 && (content[content.length - 1] ?? '').trim() === '') content.pop();
  // A loop, not Math.min(...lines): a spread of 200,000 lines overflows the stack.
  let indent = Number.POSITIVE_INFINITY;
  for (const l of content) if (l.trim() !== '') indent = Math.min(indent, /^\s*/.exec(l)?.[0].length ?? 0);
  const stripped = content.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
  return style.startsWith('|') ? stripped.join('\n') : stripped.map((l) => l.trim()).join(' ').replace(/\s+/g, ' ').trim();
}

export function parseCustomizationFrontMatter(text: string): ParsedFrontMatter {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  const entries = new Map<string, FrontMatterEntry>();
  const unreadable = new Set<string>();
  if (lines[0]?.trim() !== '---') return { present: false, entries, unreadable, body: source, bodyLine: 0, problems: [] };
  // However long: cutting the search short would send the YAML itself as the body.
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (close < 0) {
    // None of it is read; a key written in it (`tools`) fails closed rather than meaning "all".
    for (const l of lines.slice(1)) unreadable.add(keyValue(l, { maxKey: MAX_KEY })?.key ?? '');
    unreadable.delete('');
    return { present: true, entries, unreadable, body: source, bodyLine: 0, problems: [{ kind: 'unclosed', line: 0, severity: 'error' }] };
  }
  const c: Collector = { problems: [] };
  let closer: FlowCloser | undefined;
  let i = 1;
  while (i < close) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trim().startsWith('#')) {
      i++;
      continue;
    }
    if (/^\s/.test(line)) {
      problem(c, { kind: 'indented', line: i, severity: 'error' });
      i++;
      continue;
    }
    const match = keyValue(line, { maxKey: MAX_KEY });
    if (!match) {
      problem(c, { kind: 'syntax', text: line.trim(), line: i, severity: 'error' });
      i++;
      continue;
    }
    const key = match.key;
    const raw = match.raw.trim();
    const keyLine = i;
    const empty = raw === '' || raw.startsWith('#');
    let flow = raw.startsWith('[') ? raw : undefined;
    let end = i + 1;
    const firstLine = flow === undefined ? undefined : scanFlow(flow, 1, '');
    if (flow !== undefined && firstLine !== undefined && firstLine.end < 0) {
      // A flow list spread over lines: up to the line that closes it (the lines joined by spaces),
      // found by one scan of each line however many unclosed lists start above it.
      closer ??= new FlowCloser(lines, close);
      const last = closer.closingLine(i + 1, firstLine.quote);
      if (last >= 0) {
        flow = [flow, ...lines.slice(i + 1, last + 1).map((l) => l.trim())].join(' ');
        end = last + 1;
      }
    }
    const multiLineFlow = end > i + 1;
    // Otherwise the indented (or blank) lines that follow belong to this key, and under an empty
    // value also `- ` items at the key's own indentation (a common way to write a block list).
    if (!multiLineFlow) while (end < close && belongsToKey(lines[end] ?? '', empty)) end++;
    const block = multiLineFlow ? [] : lines.slice(i + 1, end);
    i = end;
    let value: FrontMatterValue | undefined;
    if (empty) {
      value = block.some((l) => l.trim() !== '' && !l.trim().startsWith('#')) ? parseBlockList(block, keyLine + 1, c) : '';
    } else if (BLOCK_SCALAR.test(raw)) {
      value = blockScalar(raw, block);
    } else {
      if (block.some((l) => l.trim() !== '')) problem(c, { kind: 'unsupported', text: (block.find((l) => l.trim() !== '') ?? '').trim(), line: keyLine + 1, severity: 'error' });
      if (flow !== undefined) {
        const closing = flowListEnd(flow);
        const list = closing.end < 0 || closing.trailing ? 'unclosed' : parseFlowList(flow.slice(0, closing.end + 1));
        if (Array.isArray(list)) value = list;
        else problem(c, list === 'unsupported' ? { kind: 'unsupported', text: raw, line: keyLine, severity: 'error' } : { kind: 'syntax', text: raw, line: keyLine, severity: 'error' });
      } else {
        const scalar = parseScalar(raw);
        if (scalar.ok) value = scalar.value;
        else problem(c, scalar.problem === 'unclosedQuote' ? { kind: 'unclosedQuote', line: keyLine, severity: 'error' } : { kind: 'unsupported', text: raw, line: keyLine, severity: 'error' });
      }
    }
    if (entries.has(key)) problem(c, { kind: 'duplicate', key, line: keyLine, severity: 'error' });
    else if (value !== undefined) entries.set(key, { value, line: keyLine });
    else unreadable.add(key);
  }
  return { present: true, entries, unreadable, body: lines.slice(close + 1).join('\n'), bodyLine: close + 1, problems: c.problems };
}

function belongsToKey(line: string, emptyValue: boolean): boolean {
  return line.trim() === '' || /^\s/.test(line) || (emptyValue && /^-(?:\s|$)/.test(line));
}

/** Typed reads of entries, each adding a problem when the value has the wrong shape. */
export class FrontMatterReader {
  readonly problems: CustomizationProblem[];

  constructor(readonly parsed: ParsedFrontMatter, private readonly known: readonly string[]) {
    this.problems = [...parsed.problems];
    for (const [key, entry] of parsed.entries) {
      if (!known.includes(key)) this.problems.push({ kind: 'unknownKey', key, known: known.join(', '), line: entry.line, severity: 'warning' });
    }
  }

  line(key: string): number {
    return this.parsed.entries.get(key)?.line ?? 0;
  }

  text(key: string, max = 10_000): string | undefined {
    const entry = this.parsed.entries.get(key);
    if (!entry) return undefined;
    if (typeof entry.value !== 'string') {
      this.problems.push({ kind: 'expectedText', key, line: entry.line, severity: 'error' });
      return undefined;
    }
    if (entry.value.length > max) {
      this.problems.push({ kind: 'tooLong', key, max, line: entry.line, severity: 'error' });
      return entry.value.slice(0, max);
    }
    return entry.value.trim() === '' ? undefined : entry.value.trim();
  }

  /**
   * A list of names: a flow or block list of texts, or one text (comma-separated); undefined when
   * the key is absent. Fails closed: a value that cannot be read as a list is [] (its problem reported).
   */
  list(key: string): string[] | undefined {
    const entry = this.parsed.entries.get(key);
    if (!entry) return this.parsed.unreadable.has(key) ? [] : undefined;
    if (typeof entry.value === 'string') return entry.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (entry.value.every((v): v is string => typeof v === 'string')) return entry.value.filter((v) => v !== '');
    this.problems.push({ kind: 'expectedList', key, line: entry.line, severity: 'error' });
    return [];
  }

  add(problem: CustomizationProblem): void {
    this.problems.push(problem);
  }
}
