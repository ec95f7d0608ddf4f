import type { ChatMessage } from '../inference/chat/types';
import { CHARS_PER_TOKEN, estimateMessageTokens } from '../inference/models/tokens';
import { withheldReason } from './classify';
import { parseDiff, type FileDiff } from './diff';
import { detectStyle, styleInstructions, subjectsOf, type CommitStyle } from './style';
import { summariseDiff } from './summarise';

/** Which changes the message describes. */
export type ChangeSource = 'staged' | 'unstaged';

export interface CommitPromptInput {
  /** The repository's folder name (told to the model for context). */
  repositoryName: string;
  source: ChangeSource;
  /** `git diff --cached` (staged) or `git diff` (unstaged) output. */
  diff: string;
  /** Repository-relative paths a `.gitignore` matches: never sent, only counted. */
  ignored: ReadonlySet<string>;
  /** Untracked new files (named only: git's diff has no content for them). */
  untracked: readonly string[];
  /** Recent commit messages, newest first. */
  recentMessages: readonly string[];
  /** The model's context length (`max_model_len`); a default when the service does not say. */
  maxModelLen: number;
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
/** Room kept for the note that names the shortened files (at most 20 names per list). */
const NOTE_TOKENS = 600;

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

/** The user message's lines before the diff: what it describes and what it leaves out. */
function preamble(input: CommitPromptInput, report: Omit<CommitPromptReport, 'cut' | 'bodiesLeftOut' | 'notNamed'>): string[] {
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

/**
 * The request for a commit message: the system instructions (with the repository's style), and a
 * user message with what is described, what is withheld, and the diff fitted into the context
 * (from `max_model_len`, after the fixed parts and the answer's room), per file.
 */
export function buildCommitPrompt(input: CommitPromptInput): CommitPrompt {
  const all = parseDiff(input.diff);
  const ignoredFiles = all.filter((f) => input.ignored.has(f.path) || (f.oldPath !== undefined && input.ignored.has(f.oldPath)));
  const visible = all.filter((f) => !ignoredFiles.includes(f));
  if (all.length === 0) throw new NothingToDescribeError(input.untracked.length > 0 ? 'onlyUntracked' : 'noChanges');
  if (visible.length === 0) throw new NothingToDescribeError('onlyIgnored');
  const binary: string[] = [];
  const generated: string[] = [];
  const sendable: FileDiff[] = [];
  for (const file of visible) {
    const why = withheldReason(file);
    if (why === 'binary') binary.push(file.path);
    else if (why === 'generated') generated.push(file.path);
    else sendable.push(file);
  }
  const style = detectStyle(subjectsOf(input.recentMessages));
  const system: ChatMessage = { role: 'system', content: [SYSTEM, ...styleInstructions(style)].join('\n') };
  const base = { source: input.source, sent: sendable.map((f) => f.path), binary, generated, ignored: ignoredFiles.length, untracked: [...input.untracked], style };
  const head = preamble(input, base);
  const intro = head.join('\n');
  const diffTitle = 'Diff (one section per file; "### path (status, +added -removed)"):';
  const maxTokens = Math.min(COMMIT_MAX_TOKENS, Math.max(128, Math.floor(input.maxModelLen / 4)));
  const fixedTokens = estimateMessageTokens(system) + estimateMessageTokens({ role: 'user', content: `${intro}\n\n${diffTitle}` }) + NOTE_TOKENS;
  const diffTokens = Math.min(MAX_DIFF_TOKENS, input.maxModelLen - maxTokens - fixedTokens);
  if (diffTokens < MIN_DIFF_TOKENS) throw new ContextTooSmallError(input.maxModelLen, fixedTokens + maxTokens + MIN_DIFF_TOKENS);
  const summary = summariseDiff(sendable, diffTokens * CHARS_PER_TOKEN);
  const shortened: string[] = [];
  if (summary.cut.length > 0) shortened.push(`shortened: ${listed(summary.cut)}`);
  if (summary.bodiesLeftOut.length > 0) shortened.push(`only named, diff left out: ${listed(summary.bodiesLeftOut)}`);
  if (summary.notNamed.length > 0) shortened.push(`${summary.notNamed.length} more files not shown at all`);
  const note = shortened.length > 0 ? `\n\nThe diff was too large for the context and was summarised per file (${shortened.join('; ')}).` : '';
  const body = sendable.length > 0 ? summary.text : '(no text diff to show: every changed file is withheld above)';
  const user: ChatMessage = { role: 'user', content: `${intro}${note}\n\n${diffTitle}\n${body}` };
  return {
    messages: [system, user],
    maxTokens,
    report: { ...base, cut: summary.cut, bodiesLeftOut: summary.bodiesLeftOut, notNamed: summary.notNamed },
  };
}
