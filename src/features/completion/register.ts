import * as vscode from 'vscode';
import { FenceStripper } from '../../core/completion/fenceStripper';
import { presentError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { defaultChatModel } from '../models/selection';
import { EditorInserter } from './editorInserter';

const SYSTEM = 'You complete code and text in an editor. Reply with only the text that continues or completes the given snippet, without explanations and without Markdown fences.';
/** Text before the cursor sent when nothing is selected. */
const PREFIX_CHARS = 4000;

/** "Stratus: Complete Selection": /v1/completions streamed into the editor after the selection, one undo step, cancellable. */
export function register(deps: Deps): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.completeSelection, async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('Stratus: open an editor and select some code or text to complete.');
      return;
    }
    const configured = await deps.inference.isConfigured();
    if (!configured.apiKey || !configured.baseUrl) {
      const action = configured.apiKey ? 'Open Settings' : 'Set Inference API Key';
      void vscode.window.showErrorMessage(`Stratus is not configured: ${configured.apiKey ? 'set stratus.inference.baseUrl' : 'set your API key'}.`, action).then((choice) => {
        if (choice === 'Set Inference API Key') void vscode.commands.executeCommand(Commands.setApiKey);
        else if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.inference.baseUrl');
      });
      return;
    }
    const document = editor.document;
    const selection = editor.selection;
    const snippet = selection.isEmpty
      ? document.getText(new vscode.Range(document.positionAt(Math.max(0, document.offsetAt(selection.active) - PREFIX_CHARS)), selection.active))
      : document.getText(selection);
    if (snippet.trim() === '') {
      void vscode.window.showInformationMessage('Stratus: select some code or text to complete.');
      return;
    }
    const inserter = new EditorInserter(editor, selection.isEmpty ? selection.active : selection.end);
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Stratus: completing…', cancellable: true }, async (progress, token) => {
      const abort = toAbortSignal(token);
      try {
        const model = await defaultChatModel(deps.inference, abort.signal);
        if (!model) throw new Error('The service lists no chat model.');
        progress.report({ message: model.id });
        const fences = new FenceStripper();
        const prompt = `Language: ${document.languageId}\n\n${snippet}`;
        await deps.inference.client().completeStream({ model: model.id, system: SYSTEM, prompt }, { signal: abort.signal }).consume((event) => {
          if (event.type === 'text') inserter.push(fences.push(event.text));
        });
        inserter.push(fences.end());
        await inserter.flush();
        deps.connectionStatus.set({ kind: 'connected', model: model.id });
      } catch (error) {
        await inserter.flush().catch(() => undefined);
        const presented = presentError(error);
        if (presented.cancelled) return;
        deps.logger.error(`Complete Selection failed: ${presented.message}`);
        const kept = inserter.inserted > 0 ? ' The text inserted so far is kept (undo removes it).' : '';
        // Not awaited: the progress notification must close now, not when the message is dismissed.
        void vscode.window.showErrorMessage(`Stratus: ${presented.message}${kept}`, 'Show Log').then((choice) => choice && deps.logChannel.show(true));
      } finally {
        abort.dispose();
      }
    });
  });
}
