import * as vscode from 'vscode';
import { locateLine } from '../../core/review/relocation';
import type { PresentedError } from '../../core/presentError';
import { DisposableStore } from '../../platform/disposables';
import { notificationText } from '../../platform/errorActions';
import { showPresentedError } from '../../platform/errorNotification';
import type { Deps } from '../deps';
import type { EditOutcome } from '../../core/edit/outcome';
import { registerReviewChatCommand } from './chat';
import { linesOfDocument, ReviewComments, type ReviewThread } from './comments';
import { REVIEW_COMMAND, reviewChanges, type ReviewOutcome } from './flow';

export type { ReviewOutcome } from './flow';

export const ReviewCommands = {
  review: REVIEW_COMMAND,
  applyFix: 'stratus.review.applyFix',
  dismiss: 'stratus.review.dismiss',
  dismissAll: 'stratus.review.dismissAll',
} as const;

/** The edit-by-instruction command Apply Fix goes through (its reviewable diff). */
const EDIT_COMMAND = 'stratus.editWithInstruction';

/** "Review Changes" (Source Control title, palette, `@stratus /review`), its comment threads, Apply Fix and Dismiss. */
export function register(deps: Deps): vscode.Disposable {
  const store = new DisposableStore();
  const comments = store.add(new ReviewComments());
  // Repositories under review: a second press must not send the same changes twice.
  const running = new Set<string>();
  const notify = (presented: Pick<PresentedError, 'message' | 'actions'>): string => {
    const options = { log: deps.logChannel, prefix: vscode.l10n.t('Cannot review the changes:') };
    void showPresentedError(presented, options);
    return notificationText(presented.message, options);
  };
  const notice = (message: string): string => {
    void vscode.window.showInformationMessage(message);
    return message;
  };
  store.add(vscode.commands.registerCommand(ReviewCommands.review, async (arg?: unknown): Promise<ReviewOutcome> => {
    const { outcome } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reviewing the changes'), cancellable: true },
      (progress, token) => reviewChanges(deps, comments, arg, { progress: (message) => progress.report({ message }), token, fail: notify, notice }, running),
    );
    // The first finding in sight (the others are a click away in the Comments panel).
    const first = outcome.findings?.[0];
    if (first) {
      const at = new vscode.Position(first.line - 1, 0);
      await vscode.window.showTextDocument(vscode.Uri.parse(first.uri), { selection: new vscode.Range(at, at), preview: true }).then(undefined, () => undefined);
    }
    if (outcome.status === 'reviewed' && outcome.summary) {
      const show = vscode.l10n.t('Show Comments');
      void vscode.window.showInformationMessage(`Stratus: ${outcome.summary}`, show).then((choice) => {
        if (choice === show) void vscode.commands.executeCommand('workbench.action.focusCommentsPanel');
      });
    }
    return outcome;
  }));
  store.add(vscode.commands.registerCommand(ReviewCommands.applyFix, (arg?: unknown) => applyFix(deps, comments, arg)));
  store.add(vscode.commands.registerCommand(ReviewCommands.dismiss, (arg?: unknown) => comments.dismiss(arg)));
  store.add(vscode.commands.registerCommand(ReviewCommands.dismissAll, () => comments.clear()));
  store.add(registerReviewChatCommand(deps, comments, running));
  return store;
}

/** The instruction the edit gets: the finding and its suggested fix, in the model's words. */
export function fixInstruction(thread: ReviewThread): string {
  const { finding } = thread;
  // One line: the edit prompt's `Instruction:` line holds all of it.
  const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');
  const instruction = `Fix this review finding (${finding.category ?? finding.severity}): ${oneLine(finding.message)}${finding.suggestion ? ` Suggested fix: ${oneLine(finding.suggestion)}` : ''}`;
  return instruction.length > 3_900 ? `${instruction.slice(0, 3_900)}…` : instruction;
}

/**
 * Apply Fix: the finding's lines, found where they are now (or refused as stale), rewritten by
 * the edit-by-instruction pipeline, which shows the change as a diff to accept or reject.
 */
async function applyFix(deps: Deps, comments: ReviewComments, arg: unknown): Promise<EditOutcome> {
  const thread = comments.find(arg);
  if (!thread) {
    const message = vscode.l10n.t('Stratus: this review comment is gone (dismissed, or replaced by a newer review).');
    void vscode.window.showInformationMessage(message);
    return { status: 'notStarted', hunks: 0, message };
  }
  const document = await vscode.workspace.openTextDocument(thread.thread.uri);
  const range = thread.thread.range ?? new vscode.Range(0, 0, 0, 0);
  const span = range.end.line - range.start.line;
  // Unchanged since the thread was made: its line as is; else found by its text and the lines around it.
  const located = thread.witness === undefined ? { line: range.start.line } : locateLine(linesOfDocument(document), thread.witness, range.start.line, document.version === thread.version);
  const first = 'line' in located ? located.line : undefined;
  if (first === undefined || first + span >= document.lineCount) {
    const message = 'reason' in located && located.reason === 'ambiguous'
      ? vscode.l10n.t('Stratus: since the review, more than one line reads like the line of this finding, so no fix was made. Review the changes again.')
      : vscode.l10n.t('Stratus: the line of this finding changed since the review, so no fix was made. Review the changes again.');
    void vscode.window.showWarningMessage(message);
    return { status: 'refused', hunks: 0, message };
  }
  if (first !== range.start.line) thread.thread.range = new vscode.Range(first, 0, first + span, 0);
  await vscode.window.showTextDocument(document, { preserveFocus: false, preview: false });
  const last = first + span;
  deps.logger.info(`Review: Apply Fix on ${vscode.workspace.asRelativePath(document.uri)}:${first + 1}.`);
  return vscode.commands.executeCommand<EditOutcome>(EDIT_COMMAND, {
    uri: document.uri.toString(),
    range: { start: { line: first, character: 0 }, end: { line: last, character: document.lineAt(last).text.length } },
    instruction: fixInstruction(thread),
    version: document.version,
  });
}
