import * as vscode from 'vscode';
import { fileAnswer, textHash, type FailedItem } from '../../core/inference/batch';
import type { BatchJobItem } from '../../services/batchJobs';
import { openChanges, type ChangeEntry } from '../../platform/multiDiff';
import { readWorkspaceText } from '../../platform/workspaceFiles';

/** Read cap of a file to review (the same as the one sent). */
export const MAX_FILE_BYTES = 256 * 1024;

export const PROPOSED_SCHEME = 'stratus-batch';

/** What a review did: files written, left as they are, changed since they were sent (never overwritten), and items without an answer. */
export interface ReviewOutcome {
  applied: string[];
  rejected: string[];
  changedSinceSent: string[];
  failed: FailedItem[];
  unchanged: string[];
  /** How the proposed changes were shown: one multi-file diff, one diff per file (no `vscode.changes`), or none to show. */
  diff?: 'changes' | 'diff' | 'none';
}

/** The proposed texts shown in diffs (`stratus-batch:` documents), by URI path. */
export class ProposedTexts implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  add(label: string, text: string): vscode.Uri {
    this.counter += 1;
    const path = `/${this.counter}/${label}`;
    this.texts.set(path, text);
    return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path });
  }
}

interface Candidate {
  item: BatchJobItem;
  uri: vscode.Uri;
  proposed: string;
}

/**
 * The multi-file review of a job's answers: each file whose answer differs from it is offered
 * (picked by default; a button opens its diff); a file changed since it was sent is listed and
 * never overwritten, and is checked again right before writing. `accept` (tests) picks without
 * the dialog: 'all' or the labels to accept.
 */
export async function reviewAnswers(
  items: readonly BatchJobItem[],
  answers: ReadonlyMap<string, unknown>,
  failed: FailedItem[],
  proposed: ProposedTexts,
  accept?: 'all' | readonly string[],
): Promise<ReviewOutcome | undefined> {
  const outcome: ReviewOutcome = { applied: [], rejected: [], changedSinceSent: [], failed, unchanged: [] };
  const candidates: Candidate[] = [];
  for (const item of items) {
    const body = answers.get(item.customId);
    if (body === undefined) continue;
    const uri = vscode.Uri.parse(item.uri);
    const current = await readWorkspaceText(uri, MAX_FILE_BYTES);
    if (!current.ok || textHash(current.text) !== item.sentHash) {
      outcome.changedSinceSent.push(item.label);
      continue;
    }
    // An empty answer, chatter or a diff around the code, leaked chat tokens: never written over the file.
    const answer = fileAnswer(body, current.text);
    if (!answer.ok) {
      outcome.failed.push({ customId: item.customId, code: answer.code, message: answer.message });
      continue;
    }
    const text = answer.text;
    if (current.text === text) outcome.unchanged.push(item.label);
    else candidates.push({ item, uri, proposed: text });
  }
  // One multi-file diff of every proposed change (as the agent's Review changes shows a turn), then accept or reject each file.
  outcome.diff = await openChanges(
    vscode.l10n.t('Batch results: accept or reject each file'),
    candidates.map((c): ChangeEntry => [c.uri, c.uri, proposed.add(c.item.label, c.proposed)]),
    (uri) => vscode.l10n.t('{0} (now ↔ batch result)', vscode.workspace.asRelativePath(uri)),
  );
  let chosen: Candidate[];
  if (accept !== undefined) chosen = accept === 'all' ? candidates : candidates.filter((c) => accept.includes(c.item.label));
  else if (candidates.length === 0) chosen = [];
  else {
    const picked = await pickFiles(candidates, proposed);
    if (picked === undefined) return undefined;
    chosen = picked;
  }
  const edit = new vscode.WorkspaceEdit();
  const toSave: vscode.Uri[] = [];
  for (const c of candidates) {
    if (!chosen.includes(c)) {
      outcome.rejected.push(c.item.label);
      continue;
    }
    // Read again right before writing: a change made while the person reviewed wins.
    const now = await readWorkspaceText(c.uri, MAX_FILE_BYTES);
    if (!now.ok || textHash(now.text) !== c.item.sentHash) {
      outcome.changedSinceSent.push(c.item.label);
      continue;
    }
    const doc = await vscode.workspace.openTextDocument(c.uri);
    edit.replace(c.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), c.proposed);
    toSave.push(c.uri);
    outcome.applied.push(c.item.label);
  }
  if (toSave.length > 0 && !(await vscode.workspace.applyEdit(edit))) {
    outcome.rejected.push(...outcome.applied);
    outcome.applied = [];
    return outcome;
  }
  for (const uri of toSave) await (await vscode.workspace.openTextDocument(uri)).save();
  return outcome;
}

async function pickFiles(candidates: Candidate[], proposed: ProposedTexts): Promise<Candidate[] | undefined> {
  const diffButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Open Diff') };
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { candidate: Candidate }>();
  quickPick.title = vscode.l10n.t('Review the batch results (the diff shows every file): accept the files to change');
  quickPick.placeholder = vscode.l10n.t('Unpicked files are left as they are');
  quickPick.canSelectMany = true;
  quickPick.items = candidates.map((candidate) => ({ label: candidate.item.label, candidate, buttons: [diffButton] }));
  quickPick.selectedItems = quickPick.items;
  return new Promise((resolve) => {
    let done = false;
    quickPick.onDidTriggerItemButton((e) => {
      const right = proposed.add(e.item.candidate.item.label, e.item.candidate.proposed);
      void vscode.commands.executeCommand('vscode.diff', e.item.candidate.uri, right, vscode.l10n.t('{0} (batch result)', e.item.candidate.item.label), { preview: true });
    });
    quickPick.onDidAccept(() => {
      done = true;
      resolve(quickPick.selectedItems.map((i) => i.candidate));
      quickPick.dispose();
    });
    quickPick.onDidHide(() => {
      if (!done) resolve(undefined);
      quickPick.dispose();
    });
    quickPick.show();
  });
}
