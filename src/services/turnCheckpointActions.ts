import * as vscode from 'vscode';
import { planRestore, type RestoreStep, type TurnCheckpoint } from '../core/agent/checkpoints';
import { locateWriteTarget } from '../core/agent/writeTarget';
import { workspaceCheckpointFs, type TurnCheckpoints } from './turnCheckpoints';
import { openChanges } from '../platform/multiDiff';
import { displayPath, workspaceRoots } from '../platform/toolWorkspace';

/**
 * The two buttons an agent turn that changed files ends with: **Review changes** (one multi-file
 * diff of the turn against its checkpoint; per-file diffs where VS Code has no `vscode.changes`)
 * and **Undo this turn** (the checkpoint restored in one WorkspaceEdit, asking first about files
 * changed again since).
 */

export const CheckpointCommands = {
  review: 'stratus.agent.reviewChanges',
  undo: 'stratus.agent.undoTurn',
} as const;

export const CHECKPOINT_SCHEME = 'stratus-checkpoint';

/** The originals of the diffs: `stratus-checkpoint:/<turn>/<index>/<name>`. */
export class CheckpointContent implements vscode.TextDocumentContentProvider {
  constructor(private readonly checkpoints: TurnCheckpoints) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [, turnId, index] = uri.path.split('/');
    const turn = (await this.checkpoints.loadHistory()).get(turnId ?? '');
    const before = turn?.files[Number(index)]?.before;
    if (before?.kind === 'too-large') return vscode.l10n.t('(This file had {0} bytes before the turn: too large to have been kept.)', before.size);
    return before?.kind === 'content' ? new TextDecoder('utf-8').decode(before.bytes) : '';
  }
}

function originalUri(turn: TurnCheckpoint, index: number): vscode.Uri {
  const name = vscode.Uri.parse(turn.files[index]?.path ?? '').path.split('/').pop() || 'file';
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${turn.turnId}/${index}/${name}` });
}

/** An empty side, for files missing before or after the turn. */
function emptyUri(turn: TurnCheckpoint, index: number): vscode.Uri {
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${turn.turnId}/empty/${index}` });
}

export async function reviewTurn(checkpoints: TurnCheckpoints, turnId: unknown): Promise<'changes' | 'diff' | 'gone'> {
  const turn = typeof turnId === 'string' ? (await checkpoints.loadHistory()).get(turnId) : undefined;
  if (!turn) {
    void vscode.window.showInformationMessage(vscode.l10n.t("This turn's checkpoint is no longer kept, so its changes cannot be shown."));
    return 'gone';
  }
  const entries = turn.files.map((file, i): [vscode.Uri, vscode.Uri, vscode.Uri] => {
    const uri = vscode.Uri.parse(file.path);
    const original = file.before.kind === 'missing' ? emptyUri(turn, i) : originalUri(turn, i);
    return [uri, original, file.afterHash === null ? emptyUri(turn, i) : uri];
  });
  // VS Code's multi-file diff editor adds the file count to its title itself.
  const shown = await openChanges(vscode.l10n.t('Changes of this @stratus turn'), entries, (uri) => vscode.l10n.t('{0} (before @stratus ↔ now)', displayPath(uri)));
  return shown === 'none' ? 'changes' : shown;
}

function addStep(edit: vscode.WorkspaceEdit, step: RestoreStep, documents: ReadonlyMap<string, vscode.TextDocument>): void {
  const uri = vscode.Uri.parse(step.path);
  if (step.action === 'delete') {
    edit.deleteFile(uri, { ignoreIfNotExists: true });
    return;
  }
  const doc = documents.get(step.path);
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(step.content);
  } catch {
    text = undefined;
  }
  if (doc && text !== undefined) edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  else edit.createFile(uri, { overwrite: true, contents: step.content });
}

/** The paths of steps whose write (or deletion) would now land outside the workspace folders. */
async function leavingWorkspace(steps: readonly RestoreStep[]): Promise<Set<string>> {
  const roots = workspaceRoots().map((r) => r.fsPath);
  const judged = await Promise.all(steps.map(async (step) => ({ path: step.path, at: await locateWriteTarget(vscode.Uri.parse(step.path).fsPath, roots) })));
  return new Set(judged.filter((j) => !j.at.ok).map((j) => j.path));
}

export type UndoOutcome = 'restored' | 'nothing' | 'declined' | 'failed' | 'gone';

/** Restores the turn's checkpoint in one WorkspaceEdit; files changed since are overwritten only if the user agrees. */
export async function undoTurn(checkpoints: TurnCheckpoints, turnId: unknown): Promise<UndoOutcome> {
  const history = await checkpoints.loadHistory();
  const turn = typeof turnId === 'string' ? history.get(turnId) : undefined;
  if (!turn) {
    void vscode.window.showInformationMessage(vscode.l10n.t("This turn's checkpoint is no longer kept (already undone, or pruned), so it cannot be undone."));
    return 'gone';
  }
  const plan = await planRestore(turn, workspaceCheckpointFs);
  // Judged where each write lands now: a link swapped in since the turn never leads Undo outside.
  const outside = await leavingWorkspace([...plan.steps, ...plan.conflicts.map((c) => c.step)]);
  if (outside.size > 0) {
    const names = [...outside].map((p) => displayPath(vscode.Uri.parse(p))).join(', ');
    void vscode.window.showWarningMessage(vscode.l10n.t('These files are not restored: they now lead outside the workspace folders (through a symbolic link): {0}.', names));
  }
  const steps = plan.steps.filter((step) => !outside.has(step.path));
  const conflicts = plan.conflicts.filter((c) => !outside.has(c.step.path));
  if (conflicts.length > 0) {
    const names = conflicts.map((c) => displayPath(vscode.Uri.parse(c.step.path))).join(', ');
    const overwrite = vscode.l10n.t('Overwrite');
    const keep = vscode.l10n.t('Undo the others only');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Undo this turn of @stratus?'),
      { modal: true, detail: vscode.l10n.t('These files changed after @stratus changed them (by you or another program, during the turn or since): {0}. Undoing the turn overwrites those changes.', names) },
      overwrite,
      keep,
    );
    if (choice === undefined) return 'declined';
    if (choice === overwrite) steps.push(...conflicts.map((c) => c.step));
  }
  if (steps.length === 0) {
    if (plan.unrestorable.length === 0 && outside.size === 0) await history.remove(turn.turnId);
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to undo: the files are already as they were before the turn.'));
    return 'nothing';
  }
  const documents = new Map<string, vscode.TextDocument>();
  for (const step of steps) {
    if (step.action !== 'write') continue;
    const uri = vscode.Uri.parse(step.path);
    const doc = await vscode.workspace.openTextDocument(uri).then((d) => d, () => undefined);
    if (doc) documents.set(step.path, doc);
  }
  const edit = new vscode.WorkspaceEdit();
  for (const step of steps) addStep(edit, step, documents);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The turn could not be undone: VS Code refused the edit. Nothing was changed.'));
    return 'failed';
  }
  // Restored documents are saved, so the files on disk are as before the turn. A save can be
  // refused while an earlier write of the same file is still settling: tried once more, then said.
  const save = async (d: vscode.TextDocument): Promise<boolean> => !d.isDirty || (await d.save()) || !d.isDirty || (await d.save());
  const unsaved = (await Promise.all([...documents.values()].map(async (d) => ((await save(d)) ? [] : [d])))).flat();
  if (unsaved.length > 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The turn was undone in the editor, but these files could not be saved: {0}. Save them to restore them on disk.', unsaved.map((d) => displayPath(d.uri)).join(', ')));
  }
  await history.remove(turn.turnId);
  if (plan.unrestorable.length > 0) {
    const names = plan.unrestorable.map((p) => displayPath(vscode.Uri.parse(p))).join(', ');
    void vscode.window.showWarningMessage(vscode.l10n.t('The turn was undone, except these files, too large to have been kept: {0}.', names));
  }
  return 'restored';
}

/** The commands behind the buttons, and the originals' content provider. */
export function registerCheckpointActions(checkpoints: TurnCheckpoints): vscode.Disposable {
  const disposables = [
    vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, new CheckpointContent(checkpoints)),
    vscode.commands.registerCommand(CheckpointCommands.review, (turnId: unknown) => reviewTurn(checkpoints, turnId)),
    vscode.commands.registerCommand(CheckpointCommands.undo, (turnId: unknown) => undoTurn(checkpoints, turnId)),
  ];
  return vscode.Disposable.from(...disposables);
}

/** The buttons at the end of the answer. */
export function checkpointButtons(stream: vscode.ChatResponseStream, turn: TurnCheckpoint): void {
  stream.markdown(`\n\n_${vscode.l10n.t('Files @stratus changed in this turn: {0}.', turn.files.length)}_\n\n`);
  stream.button({ command: CheckpointCommands.review, title: vscode.l10n.t('Review changes'), arguments: [turn.turnId] });
  stream.button({ command: CheckpointCommands.undo, title: vscode.l10n.t('Undo this turn'), arguments: [turn.turnId] });
}
