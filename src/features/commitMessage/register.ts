import * as vscode from 'vscode';
import type { FileDiff } from '../../core/commitMessage/diff';
import { commitPromptFromGit, listChanges } from '../../core/commitMessage/fromGit';
import { writeCommitMessage } from '../../core/commitMessage/generate';
import { gitProcessRunner } from '../../core/commitMessage/gitProcess';
import { ContextTooSmallError, NothingToDescribeError, type ChangeSource, type CommitPromptReport } from '../../core/commitMessage/prompt';
import { presentError, type PresentedError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import { notificationText } from '../../platform/errorActions';
import { showPresentedError } from '../../platform/errorNotification';
import { gitApi, type GitRepository } from '../../platform/git';
import type { Deps } from '../deps';
import { defaultChatModel } from '../../services/chatModelSelection';
import { readChanges } from '../../platform/gitChanges';
import { MessageWriter } from './inputBox';
import { chooseRepository } from '../../platform/gitRepositoryChoice';

export const COMMIT_MESSAGE_COMMAND = 'stratus.generateCommitMessage';

/** Context length assumed when the service does not list the model's `max_model_len`. */
const DEFAULT_CONTEXT = 32_768;

/** How a run ended (the command's return value, for tests and callers). */
export interface CommitMessageOutcome {
  readonly status: 'written' | 'cancelled' | 'failed' | 'notStarted';
  /** The repository's root (file system path), once chosen. */
  readonly repository?: string;
  readonly source?: ChangeSource;
  /** The input box's value at the end. */
  readonly message?: string;
  /** What the information notification said about what was described and left out. */
  readonly notice?: string;
  /** The error notification's text, when one was shown. */
  readonly error?: string;
}

/** "Write Commit Message with Stratus": the Source Control title button and the command. */
export function register(deps: Deps): vscode.Disposable {
  // Repositories whose message is being written: a second press must not stream into the same box.
  const writing = new Set<string>();
  return vscode.commands.registerCommand(COMMIT_MESSAGE_COMMAND, (arg?: unknown) => writeMessage(deps, arg, writing));
}

function repositoryName(repository: GitRepository): string {
  return repository.rootUri.path.split('/').filter(Boolean).pop() ?? repository.rootUri.fsPath;
}

async function writeMessage(deps: Deps, arg: unknown, writing: Set<string>): Promise<CommitMessageOutcome> {
  // Restricted Mode: the changes are sent only when the person confirms (the trust gate asks first, before any other step).
  const sendChanges = { source: COMMIT_MESSAGE_COMMAND, action: 'send', button: vscode.l10n.t('Send the Changes'), detail: vscode.l10n.t('Files matched by .gitignore, binary and generated files are never sent.') } as const;
  if (!(await deps.trust.confirm({ ...sendChanges, message: vscode.l10n.t('This workspace is not trusted. Send its Git changes to the Stratus model to write a commit message?') }))) return { status: 'notStarted' };
  const configured = await deps.inference.isConfigured();
  if (!configured.apiKey || !configured.baseUrl) {
    return { status: 'notStarted', error: notifyError(deps, configured.apiKey ? { message: 'not configured: set the inference base URL (stratus.inference.baseUrl).', actions: ['openSettings'] } : { message: 'not configured: set your inference API key.', actions: ['setApiKey'] }) };
  }
  const api = await gitApi();
  if (api === 'missing' || api === 'disabled') {
    return { status: 'notStarted', error: notifyError(deps, { message: vscode.l10n.t('the built-in Git extension is disabled or missing (setting git.enabled): Stratus reads the changes through it.'), actions: [] }) };
  }
  const repository = await chooseRepository(api, arg);
  if (repository === 'dismissed') return { status: 'notStarted' };
  if (repository === 'none') {
    return { status: 'notStarted', error: notifyError(deps, { message: vscode.l10n.t('no Git repository is open here: open a folder that holds one (or run "Git: Open Repository").'), actions: [] }) };
  }
  const name = repositoryName(repository);
  const root = repository.rootUri.toString();
  if (writing.has(root)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus is already writing the commit message for {0}.', name));
    return { status: 'notStarted', repository: repository.rootUri.fsPath };
  }
  writing.add(root);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: writing the commit message for {0}…', name), cancellable: true },
      (progress, token) => run(deps, repository, api.git?.path ?? 'git', progress, token),
    );
  } finally {
    writing.delete(root);
  }
}

async function run(deps: Deps, repository: GitRepository, gitPath: string, progress: vscode.Progress<{ message?: string }>, token: vscode.CancellationToken): Promise<CommitMessageOutcome> {
  const root = repository.rootUri.fsPath;
  // The box of the repository whose changes are read; it stops being written once the person types in it.
  const box = new MessageWriter(repository.inputBox);
  const cancelled = toAbortSignal(token);
  const stop = new AbortController();
  const signal = AbortSignal.any([cancelled.signal, stop.signal]);
  const git = gitProcessRunner(gitPath, root);
  let source: ChangeSource | undefined;
  try {
    const changes = await readChanges(repository, git, signal);
    source = changes.source;
    if (source === 'unstaged') progress.report({ message: vscode.l10n.t('nothing is staged: describing the unstaged changes') });
    const model = await defaultChatModel(deps.inference, signal);
    if (!model) return { status: 'failed', repository: root, source, error: notifyError(deps, { message: vscode.l10n.t('The service lists no chat model.'), actions: ['showLog'] }) };
    const prompt = await commitPromptFromGit(git, { repositoryName: repositoryName(repository), ...changes, maxModelLen: model.maxModelLen ?? DEFAULT_CONTEXT }, changes.files, signal);
    if (token.isCancellationRequested) return { status: 'cancelled', repository: root, source, message: box.value };
    const written = await writeCommitMessage(deps.inference.client(), model.id, prompt, (text) => {
      if (token.isCancellationRequested) return;
      // The person typed their own message meanwhile: theirs stays, and the request stops.
      if (!box.write(text)) stop.abort();
    }, signal);
    if (!box.owned) return { status: 'cancelled', repository: root, source, message: box.value };
    deps.connectionStatus.set({ kind: 'connected', model: model.id });
    // The changes read may have moved on while the model wrote (more staged, some unstaged).
    const now = await listChanges(git, signal).catch(() => undefined);
    const moved = now !== undefined && !sameChanges(now, changes);
    const notice = noticeOf(prompt.report, model.id, written.finishReason, moved);
    if (notice) void vscode.window.showInformationMessage(notice);
    return { status: 'written', repository: root, source, message: box.value, ...(notice ? { notice } : {}) };
  } catch (error) {
    // Cancelled or failed: the person's own text comes back rather than half a message (unless they typed since).
    box.restore();
    if (stop.signal.aborted && !token.isCancellationRequested) return { status: 'cancelled', repository: root, ...(source ? { source } : {}), message: box.value };
    const presented = presentCommitError(error);
    if (presented.cancelled) return { status: 'cancelled', repository: root, ...(source ? { source } : {}), message: box.value };
    if (!(error instanceof NothingToDescribeError)) deps.logger.error('Write Commit Message failed', error);
    return { status: 'failed', repository: root, ...(source ? { source } : {}), error: notifyError(deps, presented) };
  } finally {
    cancelled.dispose();
  }
}

/** Whether two readings of the changes list the same files with the same counts. */
function sameChanges(a: { source: ChangeSource; files: readonly FileDiff[] }, b: { source: ChangeSource; files: readonly FileDiff[] }): boolean {
  const key = (f: FileDiff): string => `${f.oldPath ?? ''}\0${f.path}\0${f.status}\0${f.added}\0${f.removed}\0${f.binary}`;
  return a.source === b.source && a.files.length === b.files.length && a.files.every((f, i) => key(f) === key(b.files[i] as FileDiff));
}

function presentCommitError(error: unknown): PresentedError {
  if (error instanceof NothingToDescribeError) {
    const message = error.reason === 'onlyUntracked'
      ? vscode.l10n.t('only untracked files changed: stage them to describe them.')
      : error.reason === 'onlyIgnored'
        ? vscode.l10n.t('every changed file is matched by a .gitignore, so nothing was sent.')
        : vscode.l10n.t('no changes to describe: nothing is staged and no tracked file changed.');
    return { message, actions: [], cancelled: false };
  }
  if (error instanceof ContextTooSmallError) {
    return { message: vscode.l10n.t("the model's context ({0} tokens) is too small to describe changes. Pick a model with a longer context.", error.maxModelLen), actions: ['pickModel'], cancelled: false };
  }
  return presentError(error);
}

/** What the person should know about the message: which changes it describes, what was not sent. */
export function noticeOf(report: CommitPromptReport, model: string, finishReason: string | undefined, changesMoved = false): string | undefined {
  const parts: string[] = [];
  if (changesMoved) parts.push(vscode.l10n.t('The changes moved on while the message was written (files staged or changed since): run Write Commit Message again to describe them as they are now.'));
  if (report.source === 'unstaged') parts.push(vscode.l10n.t('Nothing was staged: the message describes the unstaged changes.'));
  const withheld = [...report.binary, ...report.generated];
  if (withheld.length > 0) parts.push(vscode.l10n.t('Named but not sent (binary or generated): {0}.', shortList(withheld)));
  if (report.ignored > 0) parts.push(vscode.l10n.t('Not sent (matched by .gitignore): {0} file(s).', report.ignored));
  const shortened = report.cut.length + report.bodiesLeftOut.length + report.notNamed.length;
  if (shortened > 0) {
    parts.push(vscode.l10n.t("The diff was too large for {0}'s context and was summarised per file: {1} shortened, {2} named only, {3} left out.", model, report.cut.length, report.bodiesLeftOut.length, report.notNamed.length));
  }
  if (finishReason === 'length') parts.push(vscode.l10n.t('The answer reached its length limit and may be cut.'));
  return parts.length > 0 ? `Stratus: ${parts.join(' ')}` : undefined;
}

function shortList(paths: readonly string[]): string {
  return paths.length <= 5 ? paths.join(', ') : vscode.l10n.t('{0} and {1} more', paths.slice(0, 5).join(', '), paths.length - 5);
}

/** Shows the error notification (not awaited: the progress notification closes now) and returns its text. */
function notifyError(deps: Deps, presented: Pick<PresentedError, 'message' | 'actions'>): string {
  const options = { log: deps.logChannel, prefix: vscode.l10n.t('Cannot write the commit message:') };
  void showPresentedError(presented, options);
  return notificationText(presented.message, options);
}
