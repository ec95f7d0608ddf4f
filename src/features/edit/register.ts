import * as vscode from 'vscode';
import { DocumentChangeLog } from '../../platform/documentChangeLog';
import type { Deps } from '../deps';
import { editWithInstruction, type EditHost, type LastEdit } from './command';
import type { EditOutcome } from '../../core/edit/outcome';
import { EditRun, type RunState } from './editRun';
import { InstructionInput } from './input';

export type { EditOutcome } from '../../core/edit/outcome';

export const EditCommands = {
  editWithInstruction: 'stratus.editWithInstruction',
  editAgain: 'stratus.editAgain',
  acceptAll: 'stratus.edit.acceptAll',
  rejectAll: 'stratus.edit.rejectAll',
  acceptHunk: 'stratus.edit.acceptHunk',
  rejectHunk: 'stratus.edit.rejectHunk',
} as const;

/** True while an edit streams or waits for review (Esc rejects it). */
const IN_PROGRESS = 'stratus.editInProgress';
/** True once an edit ended, so "Edit Again" has a range and an instruction. */
const CAN_EDIT_AGAIN = 'stratus.canEditAgain';

/** What the review commands return: the run's state after the command, or `none` without a run. */
export type ReviewOutcome = RunState | 'none';

/**
 * Edit by instruction: the command (palette, editor context menu, keybinding), its live diff with
 * CodeLens Accept / Reject per hunk and for all, Esc to reject, and "Edit Again". One run at a time.
 */
export function register(deps: Deps, state: vscode.Memento): vscode.Disposable {
  const subscriptions: vscode.Disposable[] = [];
  const styles = {
    removed: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      textDecoration: 'line-through',
      opacity: '0.7',
    }),
    added: vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  };
  subscriptions.push(styles.removed, styles.added);
  let current: EditRun | undefined;
  let last: LastEdit | undefined;
  const lensesChanged = new vscode.EventEmitter<void>();
  subscriptions.push(lensesChanged);

  const changes = new DocumentChangeLog();
  subscriptions.push(changes);
  const host: EditHost = {
    deps,
    input: new InstructionInput(state),
    styles,
    changes,
    begin: async (run) => {
      if (current?.active) await current.rejectAll();
      current?.dispose();
      current = run;
      void vscode.commands.executeCommand('setContext', IN_PROGRESS, true);
      run.onDidChange(() => lensesChanged.fire());
      run.onDidEnd((ended) => {
        if (current !== run) return;
        void vscode.commands.executeCommand('setContext', IN_PROGRESS, false);
        const lineCount = ended === 'accepted' ? run.session.finalLines().length : run.original.length;
        last = { uri: run.document.uri, firstLine: run.firstLine, lineCount, instruction: run.instruction, version: run.document.version };
        void vscode.commands.executeCommand('setContext', CAN_EDIT_AGAIN, true);
        deps.logger.info(`Edit with Instruction: ${ended} (${run.session.hunks().length} hunks).`);
      });
      lensesChanged.fire();
    },
  };

  const review = async (action: (run: EditRun) => Promise<void>): Promise<ReviewOutcome> => {
    const run = current;
    if (!run) return 'none';
    if (run.active) await action(run);
    return run.state;
  };
  const hunkId = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

  subscriptions.push(
    vscode.commands.registerCommand(EditCommands.editWithInstruction, (args?: unknown): Promise<EditOutcome> => editWithInstruction(host, args)),
    vscode.commands.registerCommand(EditCommands.editAgain, async (args?: unknown): Promise<EditOutcome> => {
      if (current?.active) {
        // Refining the edit under review: it is dropped, and the same range asked again.
        const run = current;
        await run.rejectAll();
        last = { uri: run.document.uri, firstLine: run.firstLine, lineCount: run.original.length, instruction: run.instruction, version: run.document.version };
      }
      if (!last) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: no edit to refine yet. Run Edit with Instruction first.'));
        return { status: 'notStarted', hunks: 0 };
      }
      return editWithInstruction(host, args, last);
    }),
    vscode.commands.registerCommand(EditCommands.acceptAll, () => review((run) => run.acceptAll())),
    vscode.commands.registerCommand(EditCommands.rejectAll, () => review((run) => run.rejectAll())),
    vscode.commands.registerCommand(EditCommands.acceptHunk, (id: unknown) => review(async (run) => {
      const h = hunkId(id);
      if (h !== undefined) await run.accept(h);
    })),
    vscode.commands.registerCommand(EditCommands.rejectHunk, (id: unknown) => review(async (run) => {
      const h = hunkId(id);
      if (h !== undefined) await run.reject(h);
    })),
    vscode.languages.registerCodeLensProvider('*', { onDidChangeCodeLenses: lensesChanged.event, provideCodeLenses: (document) => lenses(current, document) }),
    { dispose: () => current?.dispose() },
  );
  return vscode.Disposable.from(...subscriptions);
}

/** The review's CodeLens: Accept All / Reject All (or Stop while streaming) on the range, Accept / Reject on each hunk. */
function lenses(run: EditRun | undefined, document: vscode.TextDocument): vscode.CodeLens[] {
  if (!run?.active || run.document !== document) return [];
  const at = (row: number): vscode.Range => {
    const line = Math.min(document.lineCount - 1, run.firstLine + row);
    return new vscode.Range(line, 0, line, 0);
  };
  const out: vscode.CodeLens[] = [];
  if (run.state === 'streaming') {
    out.push(new vscode.CodeLens(at(0), { title: vscode.l10n.t('$(loading~spin) Stratus is editing… Stop (Esc)'), command: EditCommands.rejectAll }));
  } else {
    out.push(
      new vscode.CodeLens(at(0), { title: vscode.l10n.t('$(check-all) Accept All'), command: EditCommands.acceptAll }),
      new vscode.CodeLens(at(0), { title: vscode.l10n.t('$(discard) Reject All (Esc)'), command: EditCommands.rejectAll }),
      new vscode.CodeLens(at(0), { title: vscode.l10n.t('$(edit) Edit Again…'), command: EditCommands.editAgain }),
    );
  }
  for (const hunk of run.session.hunks()) {
    if (!hunk.closed || hunk.decision !== 'pending') continue;
    const counts = `+${hunk.added} −${hunk.removed}`;
    out.push(
      new vscode.CodeLens(at(hunk.row), { title: vscode.l10n.t('$(check) Accept ({0})', counts), command: EditCommands.acceptHunk, arguments: [hunk.id] }),
      new vscode.CodeLens(at(hunk.row), { title: vscode.l10n.t('$(close) Reject'), command: EditCommands.rejectHunk, arguments: [hunk.id] }),
    );
  }
  return out;
}
