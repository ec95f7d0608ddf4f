import * as vscode from 'vscode';
import { gitProcessRunner } from '../../core/commitMessage/gitProcess';
import { ContextTooSmallError, NothingToDescribeError, type ChangeSource } from '../../core/commitMessage/prompt';
import { presentError, type PresentedError } from '../../core/presentError';
import { readReviewChanges, type ReviewChanges } from '../../core/review/changes';
import { mapLine, readWorkingTreeShifts, type LineShift } from '../../core/review/relocation';
import { planReview, type ReviewPlan } from '../../core/review/prompt';
import { runReview, type ReviewResult } from '../../core/review/run';
import { formatEur } from '../../core/usage/format';
import { gitApi, type GitRepository } from '../../platform/git';
import { readChanges } from '../../platform/gitChanges';
import { chooseRepository } from '../../platform/gitRepositoryChoice';
import type { Deps } from '../deps';
import { defaultChatModel } from '../../services/chatModelSelection';
import type { NotShownFinding, NotShownReason, ReviewComments, ReviewedLineMap, ShownFinding } from './comments';
import { stratusConfiguration } from '../../platform/settings';

export const REVIEW_COMMAND = 'stratus.reviewChanges';

/** Context length assumed when the service does not list the model's `max_model_len`. */
const DEFAULT_CONTEXT = 32_768;

/** How a review ended (the command's return value, for tests and callers). */
export interface ReviewOutcome {
  readonly status: 'reviewed' | 'cancelled' | 'failed' | 'notStarted';
  readonly repository?: string;
  readonly source?: ChangeSource;
  readonly model?: string;
  /** Requests sent: more than one when the diff was too large for one. */
  readonly parts?: number;
  readonly findings?: ShownFinding[];
  /** Findings listed in the summary only, with why (their file is not in the diff or was deleted, their line moved since the review). */
  readonly unplaced?: Array<{ file: string; line: number; severity: string; message: string; reason: NotShownReason }>;
  /** What the person was told: the summary, or the error. */
  readonly summary?: string;
  readonly error?: string;
}

/** How the review talks to the person: a notification's progress, or the chat's. */
export interface ReviewSurface {
  progress(message: string): void;
  readonly token: vscode.CancellationToken;
  /** An error, with its actions (a notification, or chat buttons); returns the text shown. */
  fail(presented: Pick<PresentedError, 'message' | 'actions'>): string;
  /** A note that is not an error (a review of the repository is already running); returns the text shown. */
  notice(message: string): string;
}

/** A finished review: the plan, the answers, the threads. */
export interface FinishedReview {
  readonly repository: GitRepository;
  readonly changes: ReviewChanges;
  readonly plan: ReviewPlan;
  readonly result: ReviewResult;
  readonly shown: ShownFinding[];
  readonly notShown: NotShownFinding[];
  readonly model: string;
}

function repositoryName(repository: GitRepository): string {
  return repository.rootUri.path.split('/').filter(Boolean).pop() ?? repository.rootUri.fsPath;
}

function confirmAboveTokens(): number {
  return Math.max(0, stratusConfiguration('stratus').get<number>('review.confirmAboveTokens', 40_000));
}

/** Asks before a large review is sent, with its estimated size and cost (as a large edit shows its cost). */
async function confirmCost(plan: ReviewPlan, model: string): Promise<boolean> {
  if (plan.promptTokens <= confirmAboveTokens()) return true;
  const send = vscode.l10n.t('Send for Review');
  const detail = vscode.l10n.t('{0} request(s), about {1} input tokens: about {2} with {3} (estimated at the contract rates).', plan.requests.length, plan.promptTokens.toLocaleString('en-US'), formatEur(plan.estimatedEur), model);
  const choice = await vscode.window.showWarningMessage(vscode.l10n.t('Stratus: this review is large.'), { modal: true, detail }, send);
  return choice === send;
}

/** The error of a review in the person's words, with actions. */
export function presentReviewError(error: unknown): PresentedError {
  if (error instanceof NothingToDescribeError) {
    const message = error.reason === 'onlyUntracked'
      ? vscode.l10n.t('only untracked files changed: stage them (git add) to review them.')
      : error.reason === 'onlyIgnored'
        ? vscode.l10n.t('every changed file is matched by a .gitignore, so nothing was sent.')
        : vscode.l10n.t('no changes to review: nothing is staged and no tracked file changed.');
    return { message, actions: [], cancelled: false };
  }
  if (error instanceof ContextTooSmallError) {
    return { message: vscode.l10n.t("the model's context ({0} tokens) is too small to review changes. Pick a model with a longer context.", error.maxModelLen), actions: ['pickModel'], cancelled: false };
  }
  return presentError(error);
}

/**
 * Reviews the staged changes (or the working tree's when nothing is staged) of the repository the
 * argument names (else the only one, the active editor's, or a pick) and shows each finding as a
 * comment thread. Asks the trust gate first (the changes are sent to the model).
 */
export async function reviewChanges(deps: Deps, comments: ReviewComments, arg: unknown, surface: ReviewSurface, running: Set<string>): Promise<{ outcome: ReviewOutcome; finished?: FinishedReview }> {
  const sendChanges = { source: REVIEW_COMMAND, action: 'send', button: vscode.l10n.t('Send the Changes'), detail: vscode.l10n.t('Files matched by .gitignore, binary and generated files are never sent.') } as const;
  if (!(await deps.trust.confirm({ ...sendChanges, message: vscode.l10n.t('This workspace is not trusted. Send its Git changes to the Stratus model for a review?') }))) return { outcome: { status: 'notStarted' } };
  const configured = await deps.inference.isConfigured();
  if (!configured.apiKey || !configured.baseUrl) {
    return { outcome: { status: 'notStarted', error: surface.fail(configured.apiKey ? { message: vscode.l10n.t('not configured: set the inference base URL (stratus.inference.baseUrl).'), actions: ['openSettings'] } : { message: vscode.l10n.t('not configured: set your inference API key.'), actions: ['setApiKey'] }) } };
  }
  const api = await gitApi();
  if (api === 'missing' || api === 'disabled') {
    return { outcome: { status: 'notStarted', error: surface.fail({ message: vscode.l10n.t('the built-in Git extension is disabled or missing (setting git.enabled): Stratus reads the changes through it.'), actions: [] }) } };
  }
  const repository = await chooseRepository(api, arg, vscode.l10n.t('Stratus: Review Changes'));
  if (repository === 'dismissed') return { outcome: { status: 'notStarted' } };
  if (repository === 'none') {
    return { outcome: { status: 'notStarted', error: surface.fail({ message: vscode.l10n.t('no Git repository is open here: open a folder that holds one (or run "Git: Open Repository").'), actions: [] }) } };
  }
  const root = repository.rootUri.toString();
  if (running.has(root)) {
    const message = surface.notice(vscode.l10n.t('Stratus is already reviewing the changes of {0}.', repositoryName(repository)));
    return { outcome: { status: 'notStarted', repository: repository.rootUri.fsPath, error: message } };
  }
  running.add(root);
  try {
    return await run(deps, comments, repository, api.git?.path ?? 'git', surface);
  } finally {
    running.delete(root);
  }
}

async function run(deps: Deps, comments: ReviewComments, repository: GitRepository, gitPath: string, surface: ReviewSurface): Promise<{ outcome: ReviewOutcome; finished?: FinishedReview }> {
  const root = repository.rootUri.fsPath;
  const abort = new AbortController();
  const listener = surface.token.onCancellationRequested(() => abort.abort());
  if (surface.token.isCancellationRequested) abort.abort();
  const { signal } = abort;
  const git = gitProcessRunner(gitPath, root);
  let source: ChangeSource | undefined;
  try {
    surface.progress(vscode.l10n.t('reading the changes…'));
    const listed = await readChanges(repository, git, signal);
    source = listed.source;
    const model = await defaultChatModel(deps.inference, signal);
    if (!model) return { outcome: { status: 'failed', repository: root, source, error: surface.fail({ message: vscode.l10n.t('The service lists no chat model.'), actions: ['showLog'] }) } };
    const changes = await readReviewChanges(git, { source, files: listed.files, ignored: listed.ignored, untracked: listed.untracked }, signal);
    const plan = changes.files.length === 0 ? undefined : planReview({ repositoryName: repositoryName(repository), source, maxModelLen: model.maxModelLen ?? DEFAULT_CONTEXT }, changes);
    if (!plan || plan.requests.length === 0) {
      const message = changes.noLines.length > 0
        ? vscode.l10n.t('nothing to review, nothing was sent: no line changed in {0} (renamed or mode changed only), and every other changed file is binary, generated or over the size cap.', shortList(changes.noLines))
        : vscode.l10n.t('nothing to review, nothing was sent: every changed file is binary, generated or over the size cap.');
      return { outcome: { status: 'failed', repository: root, source, error: surface.fail({ message, actions: [] }) } };
    }
    if (!(await confirmCost(plan, model.id))) return { outcome: { status: 'cancelled', repository: root, source } };
    if (signal.aborted) return { outcome: { status: 'cancelled', repository: root, source } };
    const result = await runReview({
      client: deps.inference.client(),
      model: model.id,
      plan,
      signal,
      onPart: (part, parts) => surface.progress(parts > 1 ? vscode.l10n.t('reviewing part {0} of {1} with {2}…', part, parts, model.id) : vscode.l10n.t('reviewing with {0}…', model.id)),
    });
    deps.connectionStatus.set({ kind: 'connected', model: model.id });
    const mapLines = await reviewedLineMap(git, source, result.findings.filter((f) => f.placement === 'exact' || f.placement === 'nearest').map((f) => f.path), signal);
    const { shown, notShown } = await comments.show(repository.rootUri, result.findings, mapLines);
    const finished: FinishedReview = { repository, changes, plan, result, shown, notShown, model: model.id };
    const unplaced = notShown.map((f) => ({ file: f.file, line: f.line, severity: f.severity, message: f.message, reason: f.reason }));
    return { outcome: { status: 'reviewed', repository: root, source, model: model.id, parts: plan.requests.length, findings: shown, unplaced, summary: summaryOf(finished) }, finished };
  } catch (error) {
    const presented = presentReviewError(error);
    if (presented.cancelled || signal.aborted) return { outcome: { status: 'cancelled', repository: root, ...(source ? { source } : {}) } };
    if (!(error instanceof NothingToDescribeError)) deps.logger.error('Review Changes failed', error);
    return { outcome: { status: 'failed', repository: root, ...(source ? { source } : {}), error: surface.fail(presented) } };
  } finally {
    listener.dispose();
  }
}

/**
 * Where the reviewed lines of `paths` are in the saved files: a staged review read the index, so
 * its lines are mapped through the index-to-working-tree diff of each file (unstaged lines added
 * above a change move it); an unstaged review read the saved files themselves.
 */
async function reviewedLineMap(git: ReturnType<typeof gitProcessRunner>, source: ChangeSource, paths: readonly string[], signal: AbortSignal): Promise<ReviewedLineMap> {
  if (source === 'unstaged') return (_path, line) => ({ line, known: true });
  const shifts = new Map<string, LineShift[] | undefined>();
  for (const path of new Set(paths)) shifts.set(path, await readWorkingTreeShifts(git, path, signal));
  return (path, line) => {
    const known = shifts.get(path);
    return known === undefined ? { line, known: false } : { line: mapLine(known, line), known: true };
  };
}

function shortList(paths: readonly string[]): string {
  return paths.length <= 5 ? paths.join(', ') : vscode.l10n.t('{0} and {1} more', paths.slice(0, 5).join(', '), paths.length - 5);
}

/** The files whose diff reached the model and got an answer: those of the parts whose answer was not empty. */
function reviewedFiles(review: FinishedReview): number {
  const empty = new Set(review.result.emptyParts);
  return new Set(review.plan.requests.flatMap((r, k) => (empty.has(k + 1) ? [] : r.files))).size;
}

/** One paragraph: how many findings, where, what was reviewed in parts, left out or unreadable. */
export function summaryOf(review: FinishedReview): string {
  const { changes, result, shown, notShown } = review;
  const parts: string[] = [];
  const count = (severity: string): number => shown.filter((f) => f.severity === severity).length;
  const which = changes.source === 'staged' ? vscode.l10n.t('staged') : vscode.l10n.t('unstaged');
  const total = shown.length + notShown.length;
  if (total === 0 && result.emptyParts.length === result.parts) {
    parts.push(vscode.l10n.t('The {0} changes were not reviewed: the model gave an empty answer (a reasoning model may have spent its whole answer thinking). Try again, or pick another model.', which));
  } else if (total === 0) {
    parts.push(vscode.l10n.t('No findings in the {0} changes ({1} file(s) reviewed).', which, reviewedFiles(review)));
  } else if (shown.length === 0) {
    parts.push(vscode.l10n.t('{0} finding(s) on the {1} changes, none of them shown in the editor ({2} error(s), {3} warning(s), {4} info).', total, which, notShown.filter((f) => f.severity === 'error').length, notShown.filter((f) => f.severity === 'warning').length, notShown.filter((f) => f.severity === 'info').length));
  } else {
    parts.push(vscode.l10n.t('{0} finding(s) on the {1} changes ({2} error(s), {3} warning(s), {4} info), shown as comments in the editor.', shown.length, which, count('error'), count('warning'), count('info')));
  }
  const moved = shown.filter((f) => f.placement === 'nearest').length;
  if (moved > 0) parts.push(vscode.l10n.t('{0} named a line outside the diff and were placed on the nearest changed line.', moved));
  const listed = (reason: NotShownReason): string[] => notShown.filter((f) => f.reason === reason).map((f) => `${f.file}:${f.line}`);
  const notInDiff = listed('notInDiff');
  if (notInDiff.length > 0) parts.push(vscode.l10n.t('{0} name a file that is not in the diff: {1}.', notInDiff.length, shortList(notInDiff)));
  const deleted = listed('deletedFile');
  if (deleted.length > 0) parts.push(vscode.l10n.t('Not shown, on a deleted file: {0}.', shortList(deleted)));
  const cannotOpen = listed('cannotOpen');
  if (cannotOpen.length > 0) parts.push(vscode.l10n.t('Not shown, their file cannot be opened: {0}.', shortList(cannotOpen)));
  const gone = listed('moved');
  if (gone.length > 0) parts.push(vscode.l10n.t('Not shown, their line changed since the review (unstaged or unsaved edits): {0}.', shortList(gone)));
  const ambiguous = listed('ambiguous');
  if (ambiguous.length > 0) parts.push(vscode.l10n.t('Not shown, more than one line reads like theirs since unsaved edits (not guessed): {0}.', shortList(ambiguous)));
  if (result.emptyParts.length > 0 && result.emptyParts.length < result.parts) parts.push(vscode.l10n.t('The answer for part(s) {0} was empty: those changes were not reviewed.', result.emptyParts.join(', ')));
  if (changes.noLines.length > 0) parts.push(vscode.l10n.t('Nothing to review (renamed or mode changed, no line changed): {0}.', shortList(changes.noLines)));
  if (result.parts > 1) parts.push(vscode.l10n.t('The diff was too large for one request and was reviewed in {0} parts.', result.parts));
  if (changes.source === 'unstaged') parts.push(vscode.l10n.t('Nothing was staged: the working-tree changes were reviewed.'));
  const withheld = [...changes.binary, ...changes.generated];
  if (withheld.length > 0) parts.push(vscode.l10n.t('Not reviewed (binary or generated): {0}.', shortList(withheld)));
  if (changes.tooLarge.length + changes.notRead.length > 0) parts.push(vscode.l10n.t('Not reviewed (over the size cap): {0}.', shortList([...changes.tooLarge, ...changes.notRead])));
  if (changes.ignored > 0) parts.push(vscode.l10n.t('Not sent (matched by .gitignore): {0} file(s).', changes.ignored));
  if (result.unreadableParts.length > 0) parts.push(vscode.l10n.t('The answer for part(s) {0} held no findings Stratus could read.', result.unreadableParts.join(', ')));
  if (result.skipped > 0) parts.push(vscode.l10n.t('{0} item(s) of the answer were not findings (a file, line or message missing) and were left out.', result.skipped));
  if (result.cutParts.length > 0) parts.push(vscode.l10n.t('The answer for part(s) {0} reached its length limit and may miss findings.', result.cutParts.join(', ')));
  return parts.join(' ');
}
