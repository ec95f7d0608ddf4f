import * as vscode from 'vscode';
import { escapeMarkdown } from '../../core/markdown';
import { chatErrorButtons } from '../../platform/errorNotification';
import type { Deps } from '../deps';
import type { ReviewComments } from './comments';
import { reviewChanges } from './flow';

/** Findings listed one by one in the chat; past it, the Comments panel has them all. */
const MAX_LISTED = 50;

/**
 * `@stratus /review`: the same review as the command (the repository of the active editor, else
 * the only one, else a pick), its progress in the chat, a summary with a link to each finding,
 * and the same comment threads in the editor.
 */
export function registerReviewChatCommand(deps: Deps, comments: ReviewComments, running: Set<string>): vscode.Disposable {
  return deps.chatCommands.register({
    name: 'review',
    async handle(_request, _context, stream, token): Promise<vscode.ChatResult> {
      const { outcome, finished } = await reviewChanges(deps, comments, undefined, {
        progress: (message) => stream.progress(message),
        token,
        fail: (presented) => {
          stream.markdown(`${escapeMarkdown(vscode.l10n.t('Cannot review the changes:'))} ${escapeMarkdown(presented.message)}`);
          chatErrorButtons(stream, presented.actions);
          return presented.message;
        },
        notice: (message) => {
          stream.markdown(escapeMarkdown(message));
          return message;
        },
      }, running);
      if (outcome.status === 'cancelled') {
        stream.markdown(escapeMarkdown(vscode.l10n.t('The review was cancelled; nothing was shown.')));
        return { metadata: { command: 'review', status: outcome.status } };
      }
      if (!finished || outcome.status !== 'reviewed') return { metadata: { command: 'review', status: outcome.status, error: true } };
      stream.markdown(`${escapeMarkdown(outcome.summary ?? '')}\n\n`);
      for (const finding of finished.shown.slice(0, MAX_LISTED)) {
        const uri = vscode.Uri.parse(finding.uri);
        stream.markdown('- ');
        stream.anchor(new vscode.Location(uri, new vscode.Position(finding.line - 1, 0)), `${vscode.workspace.asRelativePath(uri, false)}:${finding.line}`);
        stream.markdown(` **${escapeMarkdown(finding.severity)}**: ${escapeMarkdown(finding.message)}\n`);
      }
      if (finished.shown.length > MAX_LISTED) stream.markdown(`\n${escapeMarkdown(vscode.l10n.t('… and {0} more in the Comments panel.', finished.shown.length - MAX_LISTED))}\n`);
      for (const finding of finished.notShown) {
        stream.markdown(`- ${escapeMarkdown(`${finding.file}:${finding.line}`)} **${escapeMarkdown(finding.severity)}**: ${escapeMarkdown(finding.message)}\n`);
      }
      if (finished.shown.length > 0) stream.button({ command: 'workbench.action.focusCommentsPanel', title: vscode.l10n.t('Show Comments') });
      return { metadata: { command: 'review', status: outcome.status, findings: finished.shown.length, parts: outcome.parts } };
    },
  });
}
