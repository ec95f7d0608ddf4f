import * as vscode from 'vscode';
import { codeFence, escapeMarkdown } from '../../core/markdown';
import type { PlacedFinding } from '../../core/review/placement';
import { locateLine, witnessOf, type LineSource, type LineWitness } from '../../core/review/relocation';

/** The comment controller's id: the menus' `commentController == stratus.review`. */
export const REVIEW_CONTROLLER_ID = 'stratus.review';

/** A finding shown as a comment thread (what the commands return, for tests and callers). */
export interface ShownFinding {
  readonly id: string;
  readonly uri: string;
  /** 1-based line the thread is on. */
  readonly line: number;
  /** 1-based line the model named (differs from `line` when the finding was moved to the nearest change). */
  readonly requestedLine: number;
  readonly placement: PlacedFinding['placement'];
  readonly severity: PlacedFinding['severity'];
  readonly message: string;
  readonly label: string;
}

/**
 * Why a finding is listed in the summary instead of shown: its file is not in the diff, was
 * deleted, cannot be opened, its line no longer reads as reviewed (edited since, or the staged
 * version differs from the editor's and the line is not there), or the editor's unsaved edits
 * leave more than one line that reads as it and its window did (`ambiguous`: never guessed).
 */
export type NotShownReason = 'notInDiff' | 'deletedFile' | 'cannotOpen' | 'moved' | 'ambiguous';

/**
 * Where a reviewed line (1-based) of a file is in the saved file: through the index-to-working-tree
 * diff for a staged review (undefined when that diff changed it), the same line for an unstaged
 * one; `known` false when the mapping could not be read (the line is then found by its window).
 */
export type ReviewedLineMap = (path: string, line: number) => { line: number | undefined; known: boolean };

/** A document's lines as relocation reads them. */
export function linesOfDocument(document: vscode.TextDocument): LineSource {
  return { lineCount: document.lineCount, lineAt: (i) => document.lineAt(i).text };
}

export interface NotShownFinding extends PlacedFinding {
  readonly reason: NotShownReason;
}

export interface ReviewThread {
  readonly id: string;
  readonly root: string;
  readonly finding: PlacedFinding;
  readonly thread: vscode.CommentThread;
  /** The line and the lines around it when the thread was made, and the document's version then: Apply Fix finds the line again by them, or refuses as stale or ambiguous. */
  readonly witness: LineWitness | undefined;
  readonly version: number;
}

function severityLabel(finding: PlacedFinding): string {
  const severity = finding.severity === 'error' ? vscode.l10n.t('error') : finding.severity === 'warning' ? vscode.l10n.t('warning') : vscode.l10n.t('info');
  return finding.category ? `${finding.category} · ${severity}` : severity;
}

/** The comment's text: the model's words escaped (never links or HTML), its fix in a code block. */
export function findingMarkdown(finding: PlacedFinding): vscode.MarkdownString {
  const parts = [`**${escapeMarkdown(severityLabel(finding))}**: ${escapeMarkdown(finding.message)}`];
  if (finding.placement === 'nearest') parts.push(`_${escapeMarkdown(vscode.l10n.t('Reported for line {0}, which the diff does not show: placed on the nearest changed line.', finding.line))}_`);
  if (finding.suggestion) parts.push(`${escapeMarkdown(vscode.l10n.t('Suggested fix:'))}\n\n${codeFence(finding.suggestion)}`);
  return new vscode.MarkdownString(parts.join('\n\n'));
}

/** The review's comment threads: one per placed finding, Apply Fix and Dismiss on each. */
export class ReviewComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, vscode.l10n.t('Stratus Review'));
  private readonly entries = new Map<string, ReviewThread>();
  private next = 1;

  /**
   * Replaces the threads of the repository at `root` with threads for `findings`, each on the
   * line that now reads as the reviewed one did (the review read the index or the saved file; the
   * editor may hold other edits). The others come back in `notShown`, with why, for the summary.
   */
  async show(root: vscode.Uri, findings: readonly PlacedFinding[], mapLine: ReviewedLineMap = (_path, line) => ({ line, known: true })): Promise<{ shown: ShownFinding[]; notShown: NotShownFinding[] }> {
    this.clear(root.toString());
    const shown: ShownFinding[] = [];
    const notShown: NotShownFinding[] = [];
    for (const finding of findings) {
      if (finding.placement === 'unplaced' || finding.placement === 'deleted') {
        notShown.push({ ...finding, reason: finding.placement === 'deleted' ? 'deletedFile' : 'notInDiff' });
        continue;
      }
      const uri = vscode.Uri.joinPath(root, ...finding.path.split('/'));
      const document = await vscode.workspace.openTextDocument(uri).then((d) => d, () => undefined);
      if (!document) {
        notShown.push({ ...finding, reason: 'cannotOpen' });
        continue;
      }
      const last = Math.max(0, document.lineCount - 1);
      const reviewed = finding.placedLine - 1;
      // The reviewed line in the saved file (mapped through the unstaged changes); exact unless the editor holds unsaved edits.
      const mapped = mapLine(finding.path, finding.placedLine);
      const located = finding.witness === undefined
        ? { line: Math.min((mapped.line ?? finding.placedLine) - 1, last) } // a removal's anchor outside the shown lines: as numbered (mapped)
        : locateLine(linesOfDocument(document), finding.witness, mapped.line === undefined ? undefined : mapped.line - 1, mapped.known && !document.isDirty);
      if ('reason' in located) {
        notShown.push({ ...finding, reason: located.reason });
        continue;
      }
      const line = located.line;
      const span = finding.endLine !== undefined && finding.placement === 'exact' ? Math.min(Math.max(line, finding.endLine - 1 + line - reviewed), last) : line;
      const id = `finding-${this.next++}`;
      const label = vscode.l10n.t('Stratus review: {0}', severityLabel(finding));
      const comment: vscode.Comment = {
        body: findingMarkdown(finding),
        mode: vscode.CommentMode.Preview,
        author: { name: 'Stratus' },
        contextValue: 'stratus.finding',
      };
      const thread = this.controller.createCommentThread(uri, new vscode.Range(line, 0, span, 0), [comment]);
      thread.label = label;
      thread.canReply = false;
      thread.contextValue = 'stratus.finding';
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      const witness = witnessOf((i) => (i >= 0 && i < document.lineCount ? document.lineAt(i).text : undefined), line);
      this.entries.set(id, { id, root: root.toString(), finding, thread, witness, version: document.version });
      shown.push({ id, uri: uri.toString(), line: line + 1, requestedLine: finding.line, placement: finding.placement, severity: finding.severity, message: finding.message, label });
    }
    return { shown, notShown };
  }

  /** The finding of a thread (the menus pass the thread) or of an id (tests, chat links). */
  find(arg: unknown): ReviewThread | undefined {
    if (typeof arg === 'string') return this.entries.get(arg);
    for (const entry of this.entries.values()) if (entry.thread === arg) return entry;
    return undefined;
  }

  /** Removes one finding's thread; false when there is none. */
  dismiss(arg: unknown): boolean {
    const entry = this.find(arg);
    if (!entry) return false;
    entry.thread.dispose();
    this.entries.delete(entry.id);
    return true;
  }

  /** Removes the threads of one repository, or all of them. */
  clear(root?: string): void {
    for (const entry of [...this.entries.values()]) {
      if (root !== undefined && entry.root !== root) continue;
      entry.thread.dispose();
      this.entries.delete(entry.id);
    }
  }

  /** The findings shown now (tests). */
  get size(): number {
    return this.entries.size;
  }

  dispose(): void {
    this.clear();
    this.controller.dispose();
  }
}
