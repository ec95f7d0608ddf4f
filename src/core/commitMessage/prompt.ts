import type { ChatMessage } from '../inference/chat/types';
import { CHARS_PER_TOKEN, estimateMessageTokens, MESSAGE_OVERHEAD_TOKENS } from '../inference/models/tokens';
import { withheldReason } from './classify';
import { parseDiff, type FileDiff } from './diff';
import { detectStyle, styleInstructions, subjectsOf, type CommitStyle } from './style';
import { summariseDiff, type SummarisedDiff } from './summarise';

/** Which changes the message describes. */
export type ChangeSource = 'staged' | 'unstaged';

/** Everything about the changes but their diff. */
export interface CommitContext {
  /** The repository's folder name (told to the model for context). */
  repositoryName: string;
  source: ChangeSource;
  /** Repository-relative paths a `.gitignore` matches: never sent, only counted. */
  ignored: ReadonlySet<string>;
  /** Untracked new files (named only: git's diff has no content for them). */
  untracked: readonly string[];
  /** Recent commit messages, newest first. */
  recentMessages: readonly string[];
  /** The model's context length (`max_model_len`); a default when the service does not say. */
  maxModelLen: number;
}

export interface CommitPromptInput extends CommitContext {
  /** `git diff --cached` (staged) or `git diff` (unstaged) output. */
  diff: string;
}

/** What the prompt holds and leaves out: told to the person, and to the model in the prompt. */
export interface CommitPromptReport {
  source: ChangeSource;
  /** Files whose diff was sent (whole or cut). */
  sent: string[];
  binary: string[];
  generated: string[];
  /** How many changed files a `.gitignore` matches (never named to the model). */
  ignored: number;
  untracked: string[];
  /** Shortened to fit the context. */
  cut: string[];
  /** Named with their line counts only, to fit the context. */
  bodiesLeftOut: string[];
  /** Not even named, to fit the context. */
  notNamed: string[];
  style: CommitStyle;
}

export interface CommitPrompt {
  messages: ChatMessage[];
  maxTokens: number;
  report: CommitPromptReport;
}

/** Why there is nothing to send: no change, only untracked files (not committed unless staged), or only ignored ones. */
export type NothingReason = 'noChanges' | 'onlyUntracked' | 'onlyIgnored';

/** Nothing that can be described; the request is not sent. */
export class NothingToDescribeError extends Error {
  constructor(readonly reason: NothingReason) {
    super(reason === 'onlyUntracked' ? 'Only untracked files changed: stage them to describe them.' : reason === 'onlyIgnored' ? 'Every changed file is matched by a .gitignore: nothing is sent.' : 'No changes to describe.');
    this.name = 'NothingToDescribeError';
  }
}

/** Longest answer asked for: a subject and a short body (reasoning models think inside it too). */
export const COMMIT_MAX_TOKENS = 1024;
/** The most diff sent, whatever the context: a commit message needs no more, and input is billed. */
export const MAX_DIFF_TOKENS = 24_000;
/** Below this many tokens for the diff the model's context is too small to be useful. */
const MIN_DIFF_TOKENS = 200;
/** The note that names the shortened files never takes more than this (its lists are cut to fit). */
const NOTE_CHARS = 1800;
/** Each of the note's two lists of names. */
const NOTE_LIST_CHARS = 700;
const DIFF_TITLE = 'Diff (one section per file; "### path (status, +added -removed)"):';

const SYSTEM = [
  'You write git commit messages for the changes you are shown.',
  'Reply with the commit message only: a subject line of at most 72 characters in the imperative mood ("Add", "Fix"), then, only when the change needs explaining, a blank line and a short body wrapped at 72 columns that says what changed and why.',
  'No Markdown headings, no code fences, no quotes around the message, no preamble such as "Here is".',
  'Describe only what the diff shows; where it was shortened, do not guess what was left out.',
].join(' ');

/** The context is too small for even a shortened diff. */
export class ContextTooSmallError extends Error {
  constructor(readonly maxModelLen: number, readonly neededTokens: number) {
    super(`The model's context (${maxModelLen} tokens) leaves no room for the changes (about ${neededTokens} tokens are needed before any diff).`);
    this.name = 'ContextTooSmallError';
  }
}

function listed(paths: readonly string[], max = 20): string {
  return paths.length <= max ? paths.join(', ') : `${paths.slice(0, max).join(', ')} and ${paths.length - max} more`;
}

/** At most 20 names, within `maxChars` characters, then how many more. */
function listedWithin(paths: readonly string[], maxChars: number): string {
  const reserve = ` and ${paths.length} more`.length;
  const names: string[] = [];
  let used = 0;
  for (const path of paths.slice(0, 20)) {
    const size = (names.length > 0 ? 2 : 0) + path.length;
    if (used + size + reserve > maxChars) break;
    names.push(path);
    used += size;
  }
  if (names.length === 0) return `${paths.length} files`;
  return names.length === paths.length ? names.join(', ') : `${names.join(', ')} and ${paths.length - names.length} more`;
}

/** The user message's lines before the diff: what it describes and what it leaves out. */
function preamble(input: CommitContext, report: { binary: readonly string[]; generated: readonly string[]; untracked: readonly string[] }): string[] {
  const lines = [
    input.source === 'staged'
      ? `Write the commit message for the staged changes of the repository "${input.repositoryName}".`
      : `Nothing is staged in the repository "${input.repositoryName}": write the commit message for its unstaged changes to tracked files.`,
  ];
  if (report.binary.length > 0) lines.push(`Binary files changed (content not shown): ${listed(report.binary)}.`);
  if (report.generated.length > 0) lines.push(`Generated files changed (lockfiles, build output, minified; content not shown): ${listed(report.generated)}.`);
  if (report.untracked.length > 0 && input.source === 'unstaged') lines.push(`New untracked files (not part of this change unless staged): ${listed(report.untracked)}.`);
  const subjects = subjectsOf(input.recentMessages).slice(0, 10);
  if (subjects.length > 0) lines.push('', 'Recent commit subjects of this repository, newest first (follow their style):', ...subjects.map((s) => `- ${s}`));
  return lines;
}

/** The note saying what the summary shortened; never longer than NOTE_CHARS. */
function shortenedNote(summary: SummarisedDiff): string {
  const parts: string[] = [];
  if (summary.cut.length > 0) parts.push(`shortened: ${listedWithin(summary.cut, NOTE_LIST_CHARS)}`);
  if (summary.bodiesLeftOut.length > 0) parts.push(`only named, diff left out: ${listedWithin(summary.bodiesLeftOut, NOTE_LIST_CHARS)}`);
  if (summary.notNamed.length > 0) parts.push(`${summary.notNamed.length} more files not shown at all`);
  if (parts.length === 0) return '';
  const note = `\n\nThe diff was too large for the context and was summarised per file (${parts.join('; ')}).`;
  return note.length <= NOTE_CHARS ? note : '\n\nThe diff was too large for the context and was summarised per file.';
}

/** The changed files sorted into what is only counted (ignored), only named (binary, generated) and sent. */
export interface SortedChanges {
  ignored: FileDiff[];
  binary: string[];
  generated: string[];
  sendable: FileDiff[];
}

/** Sorts the changed files; throws NothingToDescribeError when none can be described. */
export function sortChanges(all: readonly FileDiff[], ignored: ReadonlySet<string>, untracked: readonly string[]): SortedChanges {
  const ignoredFiles = all.filter((f) => ignored.has(f.path) || (f.oldPath !== undefined && ignored.has(f.oldPath)));
  const visible = all.filter((f) => !ignoredFiles.includes(f));
  if (all.length === 0) throw new NothingToDescribeError(untracked.length > 0 ? 'onlyUntracked' : 'noChanges');
  if (visible.length === 0) throw new NothingToDescribeError('onlyIgnored');
  const sorted: SortedChanges = { ignored: ignoredFiles, binary: [], generated: [], sendable: [] };
  for (const file of visible) {
    const why = withheldReason(file);
    if (why === 'binary') sorted.binary.push(file.path);
    else if (why === 'generated') sorted.generated.push(file.path);
    else sorted.sendable.push(file);
  }
  return sorted;
}

/** Everything in the request but the diff, and how many characters the diff's summary may take. */
export interface PromptFrame {
  system: ChatMessage;
  intro: string;
  maxTokens: number;
  diffChars: number;
  style: CommitStyle;
}

/**
 * The request's fixed parts and the diff's budget: the context (`max_model_len`) less the answer's
 * room, the system message, the user message's framing, its text before the diff and the note at
 * its longest; so the whole request, estimated as it is sent, never exceeds the context.
 */
export function promptFrame(input: CommitContext, sorted: SortedChanges): PromptFrame {
  const style = detectStyle(subjectsOf(input.recentMessages));
  const system: ChatMessage = { role: 'system', content: [SYSTEM, ...styleInstructions(style)].join('\n') };
  const intro = preamble(input, { binary: sorted.binary, generated: sorted.generated, untracked: input.untracked }).join('\n');
  const maxTokens = Math.min(COMMIT_MAX_TOKENS, Math.max(128, Math.floor(input.maxModelLen / 4)));
  const userChars = (input.maxModelLen - maxTokens - estimateMessageTokens(system) - MESSAGE_OVERHEAD_TOKENS) * CHARS_PER_TOKEN;
  const framing = intro.length + NOTE_CHARS + `\n\n${DIFF_TITLE}\n`.length;
  const diffChars = Math.min(MAX_DIFF_TOKENS * CHARS_PER_TOKEN, userChars - framing);
  if (!(diffChars >= MIN_DIFF_TOKENS * CHARS_PER_TOKEN)) {
    const needed = maxTokens + estimateMessageTokens(system) + MESSAGE_OVERHEAD_TOKENS + Math.ceil(framing / CHARS_PER_TOKEN) + MIN_DIFF_TOKENS;
    throw new ContextTooSmallError(input.maxModelLen, needed);
  }
  return { system, intro, maxTokens, diffChars, style };
}

/**
 * The request for a commit message: the system instructions (with the repository's style), and a
 * user message with what is described, what is withheld, and the diff fitted into the context
 * (from `max_model_len`, after the fixed parts and the answer's room), per file.
 */
export function buildCommitPrompt(input: CommitPromptInput): CommitPrompt {
  return buildCommitPromptFromFiles(input, parseDiff(input.diff));
}

/** `buildCommitPrompt` from files already parsed (and, when read under a budget, perhaps truncated). */
export function buildCommitPromptFromFiles(input: CommitContext, files: readonly FileDiff[]): CommitPrompt {
  const sorted = sortChanges(files, input.ignored, input.untracked);
  const frame = promptFrame(input, sorted);
  const { sendable, binary, generated } = sorted;
  const base = { source: input.source, sent: sendable.map((f) => f.path), binary, generated, ignored: sorted.ignored.length, untracked: [...input.untracked], style: frame.style };
  const summary = summariseDiff(sendable, frame.diffChars);
  const body = sendable.length > 0 ? summary.text : '(no text diff to show: every changed file is withheld above)';
  const user: ChatMessage = { role: 'user', content: `${frame.intro}${shortenedNote(summary)}\n\n${DIFF_TITLE}\n${body}` };
  return {
    messages: [frame.system, user],
    maxTokens: frame.maxTokens,
    report: { ...base, cut: summary.cut, bodiesLeftOut: summary.bodiesLeftOut, notNamed: summary.notNamed },
  };
}
