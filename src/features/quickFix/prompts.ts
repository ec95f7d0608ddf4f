// What the quick fixes and the editor menu ask for: plain text built from plain data, no `vscode`
// (unit-tested in plain Node).

import { MAX_INSTRUCTION_CHARS } from '../../core/edit';

/** A diagnostic as command arguments carry it (JSON: positions are 0-based). */
export interface DiagnosticInfo {
  message: string;
  source?: string | undefined;
  /** The diagnostic's code (`TS2322`, `no-unused-vars`), as text. */
  code?: string | undefined;
  severity: 'error' | 'warning' | 'information' | 'hint';
  /** 0-based line of the diagnostic's start. */
  line: number;
}

/** The code shown with a request: the document's lines around a range. */
export interface CodeExcerpt {
  /** Workspace-relative path (or the untitled name). */
  path: string;
  languageId: string;
  /** 0-based first line of `text`. */
  firstLine: number;
  text: string;
}

/** Most lines of code put in a chat query (a longer block is cut around its start). */
export const MAX_EXCERPT_LINES = 60;

const who = (d: Pick<DiagnosticInfo, 'source' | 'code'>): string => {
  const source = d.source?.trim();
  const code = d.code?.trim();
  if (source && code) return ` reported by ${source} (${code})`;
  if (source) return ` reported by ${source}`;
  return code ? ` (${code})` : '';
};

/**
 * The instruction "Fix with Stratus" gives the edit command: the diagnostic's own words first. Cut
 * to the length the edit command accepts (a long type error would otherwise be refused); the
 * prompt still lists the whole message among the range's problems.
 */
export function fixInstruction(d: Pick<DiagnosticInfo, 'message' | 'source' | 'code' | 'severity'>): string {
  const text = `Fix this ${d.severity}${who(d)}: ${d.message.trim()}`;
  if (text.length <= MAX_INSTRUCTION_CHARS) return text;
  let end = MAX_INSTRUCTION_CHARS - 1;
  // Never leave half of a surrogate pair before the ellipsis.
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  return `${text.slice(0, end)}…`;
}

/** A Markdown code fence that the code itself cannot close. */
export function fenced(code: string, languageId: string): string {
  const longest = Math.max(2, ...(code.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${languageId}\n${code}\n${fence}`;
}

function lines(excerpt: CodeExcerpt): string {
  const count = excerpt.text.split('\n').length;
  return count > 1 ? `lines ${excerpt.firstLine + 1}-${excerpt.firstLine + count}` : `line ${excerpt.firstLine + 1}`;
}

/** The `@stratus` query of "Explain with Stratus" on a diagnostic. */
export function explainDiagnosticQuery(d: DiagnosticInfo, excerpt: CodeExcerpt): string {
  return [
    `@stratus Explain this ${d.severity}${who(d)} in \`${excerpt.path}\` at line ${d.line + 1}, why it happens and how to fix it:`,
    '',
    `> ${d.message.trim().replace(/\n/g, '\n> ')}`,
    '',
    `The code (${lines(excerpt)}):`,
    fenced(excerpt.text, excerpt.languageId),
  ].join('\n');
}

/** The `@stratus` query of "Explain with Stratus" on the selection or the enclosing block. */
export function explainCodeQuery(excerpt: CodeExcerpt): string {
  return [`@stratus Explain what this code from \`${excerpt.path}\` (${lines(excerpt)}) does, step by step:`, '', fenced(excerpt.text, excerpt.languageId)].join('\n');
}

/**
 * The `@stratus` query of "Generate Tests with Stratus": tests go in a new file the agent creates
 * (stratus_createFile shows it and asks first), following the project's own test conventions.
 */
export function generateTestsQuery(excerpt: CodeExcerpt): string {
  return [
    `@stratus Write unit tests for this code from \`${excerpt.path}\` (${lines(excerpt)}).`,
    'First look at how this project already writes its tests (framework, folder, file naming), then create a new test file that follows them with the stratus_createFile tool. Cover the normal cases, the edge cases and the errors.',
    '',
    fenced(excerpt.text, excerpt.languageId),
  ].join('\n');
}

/** The instruction "Add Documentation with Stratus" gives the edit command. */
export const DOCUMENTATION_INSTRUCTION = "Add documentation comments in this language's usual style (JSDoc, docstrings, /// ...) to the declarations in this code: what each does, its parameters, what it returns and the errors it raises. Change no code.";

/** At most `MAX_EXCERPT_LINES` lines of `text` (lines `firstLine`...), the cut said. */
export function boundedExcerpt(text: string, firstLine: number): { text: string; firstLine: number } {
  const all = text.split('\n');
  if (all.length <= MAX_EXCERPT_LINES) return { text, firstLine };
  return { text: `${all.slice(0, MAX_EXCERPT_LINES).join('\n')}\n… (${all.length - MAX_EXCERPT_LINES} more lines)`, firstLine };
}
