/**
 * The variables of a prompt file's body: `${input:name}` and `${input:name:placeholder}` (asked of
 * the user, or given on the chat line as `name=value`), `${selection}` / `${selectedText}`,
 * `${file}`, `${fileBasename}`, `${fileDirname}`, `${workspaceFolder}`,
 * `${workspaceFolderBasename}`. An unknown `${...}` is left as written (and reported in the file).
 */

import { forwardIndexOf } from './textScan';


export const CONTEXT_VARIABLES = ['selection', 'selectedText', 'file', 'fileBasename', 'fileDirname', 'workspaceFolder', 'workspaceFolderBasename'] as const;
export type ContextVariable = (typeof CONTEXT_VARIABLES)[number];

export interface PromptInput {
  readonly name: string;
  /** The placeholder written after the name (`${input:name:placeholder}`), if any. */
  readonly placeholder: string | undefined;
}

interface VariableMatch {
  readonly index: number;
  readonly whole: string;
  readonly name: string;
  /** The part after the first `:` (`${input:name}`: `name`). */
  readonly input: string | undefined;
  /** The part after the second `:`, up to the first `}` (it may span lines). */
  readonly placeholder: string | undefined;
}

const LETTER = /[A-Za-z]/;
const INPUT_PART = /[A-Za-z0-9_-]/;

/**
 * Every `${name}`, `${name:input}` and `${name:input:placeholder}` of `body`, left to right (what
 * `/\$\{([A-Za-z]+)(?::([A-Za-z0-9_-]+)(?::([^}]*))?)?\}/g` matched), in one pass: the closing
 * `}` of a placeholder is looked up, not searched for again from each `${`.
 */
function variableMatches(body: string): VariableMatch[] {
  const out: VariableMatch[] = [];
  const close = forwardIndexOf(body, '}');
  for (let at = body.indexOf('${'); at !== -1; ) {
    let k = at + 2;
    while (k < body.length && LETTER.test(body[k] ?? '')) k++;
    const name = body.slice(at + 2, k);
    let input: string | undefined;
    let placeholder: string | undefined;
    let end = -1;
    if (k > at + 2 && body[k] === '}') end = k;
    else if (k > at + 2 && body[k] === ':') {
      const from = k + 1;
      k = from;
      while (k < body.length && INPUT_PART.test(body[k] ?? '')) k++;
      if (k > from && body[k] === '}') {
        input = body.slice(from, k);
        end = k;
      } else if (k > from && body[k] === ':') {
        const closing = close(k + 1);
        if (closing !== -1) {
          input = body.slice(from, k);
          placeholder = body.slice(k + 1, closing);
          end = closing;
        }
      }
    }
    if (end === -1) {
      at = body.indexOf('${', at + 1);
      continue;
    }
    out.push({ index: at, whole: body.slice(at, end + 1), name, input, placeholder });
    at = body.indexOf('${', end + 1);
  }
  return out;
}

/** The inputs a body asks for, each once, in order. */
export function promptInputs(body: string): PromptInput[] {
  const seen = new Map<string, PromptInput>();
  for (const m of variableMatches(body)) {
    if (m.name !== 'input' || !m.input) continue;
    const existing = seen.get(m.input);
    if (!existing || (existing.placeholder === undefined && m.placeholder)) seen.set(m.input, { name: m.input, placeholder: m.placeholder || undefined });
  }
  return [...seen.values()];
}

/** `${...}` that are neither inputs nor known context variables, with their line in the body. */
export function unknownVariables(body: string): Array<{ name: string; line: number }> {
  const out: Array<{ name: string; line: number }> = [];
  // Newlines are counted from the previous match on: one pass over the body, however many matches.
  let line = 0;
  let counted = 0;
  for (const m of braced(body)) {
    for (let at = body.indexOf('\n', counted); at !== -1 && at < m.index; at = body.indexOf('\n', at + 1)) line++;
    counted = m.index;
    const name = m.text;
    const known = /^input:[A-Za-z0-9_-]+(?::[^}]*)?$/.test(name) || (CONTEXT_VARIABLES as readonly string[]).includes(name);
    if (!known) out.push({ name, line });
  }
  return out;
}

/**
 * Every `${...}` on one line (what `/\$\{([^}\n]*)\}/g` matched), in one pass: a `${` whose line
 * ends before any `}` is skipped with every other `${` before that line's end.
 */
function braced(body: string): Array<{ index: number; text: string }> {
  const out: Array<{ index: number; text: string }> = [];
  const closes = forwardIndexOf(body, '}');
  const newlines = forwardIndexOf(body, '\n');
  for (let at = body.indexOf('${'); at !== -1; ) {
    const close = closes(at + 2);
    const newline = newlines(at + 2);
    if (close === -1) break;
    if (newline !== -1 && newline < close) {
      at = body.indexOf('${', newline + 1);
      continue;
    }
    out.push({ index: at, text: body.slice(at + 2, close) });
    at = body.indexOf('${', close + 1);
  }
  return out;
}

/**
 * Values given on the chat line for declared inputs: leading `name=value`, `name="two words"` or
 * `name='two words'`; what follows the last one is the rest of the user's text.
 */
export function inputArguments(text: string, declared: readonly string[]): { values: Map<string, string>; rest: string } {
  const values = new Map<string, string>();
  const line = text.trim();
  // Sticky, from where the last one ended: the line is not copied once per argument.
  const argument = /([A-Za-z0-9_-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))(?:\s+|$)/y;
  let at = 0;
  for (;;) {
    argument.lastIndex = at;
    const m = argument.exec(line);
    if (!m || !declared.includes(m[1] ?? '')) break;
    values.set(m[1] ?? '', m[2] ?? m[3] ?? m[4] ?? '');
    at = argument.lastIndex;
  }
  return { values, rest: line.slice(at).trim() };
}

export type VariableValues = Partial<Record<ContextVariable, string>> & { readonly inputs: ReadonlyMap<string, string> };

/** The body with its variables replaced; inputs and context variables without a value become '' and are listed. */
export function resolveVariables(body: string, values: VariableValues): { text: string; empty: string[] } {
  const empty = new Set<string>();
  const parts: string[] = [];
  let copied = 0;
  for (const m of variableMatches(body)) {
    parts.push(body.slice(copied, m.index), replaceVariable(m, values, empty));
    copied = m.index + m.whole.length;
  }
  parts.push(body.slice(copied));
  return { text: parts.join(''), empty: [...empty] };
}

function replaceVariable({ whole, name, input }: VariableMatch, values: VariableValues, empty: Set<string>): string {
  if (name === 'input' && input) {
    const value = values.inputs.get(input);
    if (value === undefined || value === '') empty.add(`input:${input}`);
    return value ?? '';
  }
  if (input !== undefined || !(CONTEXT_VARIABLES as readonly string[]).includes(name)) return whole;
  const key = (name === 'selectedText' ? 'selection' : name) as ContextVariable;
  const value = values[key];
  if (value === undefined || value === '') empty.add(name);
  return value ?? '';
}
