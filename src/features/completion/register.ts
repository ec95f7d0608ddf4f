import * as vscode from 'vscode';
import { FenceStripper } from '../../core/inference/completions/fenceStripper';
import { presentError, type PresentedError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import { DisposableStore } from '../../platform/disposables';
import { notificationText } from '../../platform/errorActions';
import { showPresentedError, type ErrorNotificationOptions } from '../../platform/errorNotification';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { defaultChatModel } from '../../services/chatModelSelection';
import { EditorInserter } from './editorInserter';

const SYSTEM = 'You complete code and text in an editor. Reply with only the text that continues or completes the given snippet, without explanations and without Markdown fences.';
/** Text before the cursor sent when nothing is selected. */
const PREFIX_CHARS = 4000;

/** How a run of Complete Selection ended (the command's return value, for tests and callers). */
export interface CompletionOutcome {
  readonly status: 'completed' | 'cancelled' | 'refused' | 'failed' | 'notStarted';
  /** Characters inserted into the editor. */
  readonly inserted: number;
  /** The error notification's text, when one was shown. */
  readonly message?: string;
}

/** "Stratus: Complete Selection": /v1/completions streamed into the editor after the selection, one undo step, cancellable. */
export function register(deps: Deps): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.completeSelection, () => completeSelection(deps));
}

async function completeSelection(deps: Deps): Promise<CompletionOutcome> {
  const notStarted: CompletionOutcome = { status: 'notStarted', inserted: 0 };
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: open an editor and select some code or text to complete.'));
    return notStarted;
  }
  const configured = await deps.inference.isConfigured();
  if (!configured.apiKey || !configured.baseUrl) {
    const message = notifyError(
      configured.apiKey
        ? { message: 'not configured: set the inference base URL (stratus.inference.baseUrl).', actions: ['openSettings'] }
        : { message: 'not configured: set your inference API key.', actions: ['setApiKey'] },
      deps,
    );
    return { ...notStarted, message };
  }
  const document = editor.document;
  const selection = editor.selection;
  const snippet = selection.isEmpty
    ? document.getText(new vscode.Range(document.positionAt(Math.max(0, document.offsetAt(selection.active) - PREFIX_CHARS)), selection.active))
    : document.getText(selection);
  if (snippet.trim() === '') {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: select some code or text to complete.'));
    return notStarted;
  }
  const at = selection.isEmpty ? selection.active : selection.end;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: completing…'), cancellable: true }, (progress, token) =>
    stream(deps, editor, at, `Language: ${document.languageId}\n\n${snippet}`, token, progress));
}

/** Streams the completion into `editor` at `at`; stops the request as soon as the editor refuses an edit. */
async function stream(deps: Deps, editor: vscode.TextEditor, at: vscode.Position, prompt: string, token: vscode.CancellationToken, progress: vscode.Progress<{ message?: string }>): Promise<CompletionOutcome> {
  const store = new DisposableStore();
  // Cancelled by the user (the notification's Cancel) or by the editor refusing the text.
  const stop = store.add(new vscode.CancellationTokenSource());
  store.add(token.onCancellationRequested(() => stop.cancel()));
  const inserter = store.add(new EditorInserter(editor, at, () => stop.cancel()));
  const abort = toAbortSignal(stop.token);
  try {
    const model = await defaultChatModel(deps.inference, abort.signal);
    if (!model) {
      return { status: 'failed', inserted: 0, message: notifyError({ message: vscode.l10n.t('The service lists no chat model.'), actions: ['showLog'] }, deps) };
    }
    progress.report({ message: model.id });
    const fences = new FenceStripper();
    await deps.inference.client().completeStream({ model: model.id, system: SYSTEM, prompt }, { signal: abort.signal }).consume((event) => {
      if (event.type === 'text') inserter.push(fences.push(event.text));
    });
    inserter.push(fences.end());
    await inserter.flush();
    if (inserter.refused) return refused(deps, inserter.inserted);
    deps.connectionStatus.set({ kind: 'connected', model: model.id });
    return { status: 'completed', inserted: inserter.inserted };
  } catch (error) {
    await inserter.flush();
    if (inserter.refused) return refused(deps, inserter.inserted);
    const presented = presentError(error);
    if (presented.cancelled) return { status: 'cancelled', inserted: inserter.inserted };
    deps.logger.error('Complete Selection failed', error);
    const kept = inserter.inserted > 0 ? vscode.l10n.t('The text inserted so far is kept (Undo removes it).') : undefined;
    return { status: 'failed', inserted: inserter.inserted, message: notifyError(presented, deps, { suffix: kept }) };
  } finally {
    abort.dispose();
    store.dispose();
  }
}

function refused(deps: Deps, inserted: number): CompletionOutcome {
  deps.logger.info(`Complete Selection stopped: the editor refused the edit after ${inserted} characters.`);
  const message = notifyError(
    { message: inserted > 0
      ? vscode.l10n.t('The editor no longer accepts the completion (its tab was switched or closed), so the request was stopped. The text inserted so far is kept.')
      : vscode.l10n.t('The editor no longer accepts the completion (its tab was switched or closed), so the request was stopped.'), actions: [] },
    deps,
  );
  return { status: 'refused', inserted, message };
}

/** Shows the error notification (not awaited: the progress notification closes now) and returns its text. */
function notifyError(presented: Pick<PresentedError, 'message' | 'actions'>, deps: Deps, more: Pick<ErrorNotificationOptions, 'suffix'> = {}): string {
  const options: ErrorNotificationOptions = { log: deps.logChannel, ...more };
  void showPresentedError(presented, options);
  return notificationText(presented.message, options);
}
