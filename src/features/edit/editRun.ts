import * as vscode from 'vscode';
import { EditSession, type RowEdit } from '../../core/edit';
import type { AnchoredLines } from '../../platform/anchoredLines';
import { coalesce, linesOf, replaceRows, toTextEdit } from './documentEdits';

/** How a run ended, or where it stands. */
export type RunState = 'streaming' | 'review' | 'accepted' | 'rejected' | 'abandoned';

/**
 * One edit by instruction in one document: the session's row edits applied in order (without undo
 * stops, so they never become undo steps of their own), the diff decorations, and the end: the
 * range put back to its original text and the result applied as ONE undo step. The range is
 * anchored: a change the user makes inside it abandons the run (the text is left as it is); one
 * above it moves it, and every row edit is placed where the range is at that moment.
 */
export class EditRun implements vscode.Disposable {
  readonly session: EditSession;
  readonly original: readonly string[];
  private queue: RowEdit[] = [];
  private chain: Promise<void> = Promise.resolve();
  /** The range's first line when last known (kept once the range went stale, for "Edit Again"). */
  private knownFirstLine: number;
  private stateValue: RunState = 'streaming';
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the rows, the hunks or the state changed (CodeLens, context keys). */
  readonly onDidChange = this.changed.event;
  private readonly ended = new vscode.EventEmitter<RunState>();
  readonly onDidEnd = this.ended.event;
  readonly controller = new AbortController();

  /** Takes `range` over (disposed with the run); it must not be stale. */
  constructor(
    private readonly range: AnchoredLines,
    readonly instruction: string,
    private readonly styles: { removed: vscode.TextEditorDecorationType; added: vscode.TextEditorDecorationType },
  ) {
    const span = range.span ?? { firstLine: 0, lineCount: 0 };
    this.knownFirstLine = span.firstLine;
    this.original = linesOf(range.document, span.firstLine, span.lineCount);
    this.session = new EditSession(this.original);
    this.subscriptions.push(
      this.changed,
      this.ended,
      range,
      range.onDidGoStale(() => this.changedInside()),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === this.document) this.abandon();
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
    );
  }

  get document(): vscode.TextDocument {
    return this.range.document;
  }

  /** The range's first line now (moved by changes above it). */
  get firstLine(): number {
    const span = this.range.span;
    if (span) this.knownFirstLine = span.firstLine;
    return this.knownFirstLine;
  }

  get state(): RunState {
    return this.stateValue;
  }

  get active(): boolean {
    return this.stateValue === 'streaming' || this.stateValue === 'review';
  }

  /** Row edits from the stream or a decision: applied in order, after those before them. */
  push(edits: readonly RowEdit[]): void {
    if (edits.length === 0 || !this.active) return;
    this.queue.push(...edits);
    this.chain = this.chain.then(() => this.drain());
  }

  /** Every edit pushed so far is in the document. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** The stream ended: review, or straight to the end when nothing changed. */
  async streamEnded(): Promise<void> {
    if (!this.active) return;
    this.stateValue = 'review';
    await this.settled();
    await this.finishIfDone();
  }

  accept(id: number): Promise<void> {
    return this.decide(() => this.session.accept(id));
  }

  reject(id: number): Promise<void> {
    return this.decide(() => this.session.reject(id));
  }

  acceptAll(): Promise<void> {
    if (this.session.streaming) return Promise.resolve();
    return this.decide(() => this.session.acceptAll());
  }

  /** Stops the request at once (if streaming) and puts the range back. */
  rejectAll(): Promise<void> {
    this.controller.abort();
    return this.decide(() => this.session.rejectAll());
  }

  private async decide(decision: () => RowEdit[]): Promise<void> {
    if (!this.active) return;
    this.push(decision());
    await this.settled();
    await this.finishIfDone();
  }

  private async finishIfDone(): Promise<void> {
    if (!this.active || !this.session.done) {
      this.changed.fire();
      return;
    }
    const final = this.session.finalLines();
    const accepted = final.length !== this.original.length || final.some((l, i) => l !== this.original[i]);
    if (accepted) await this.oneUndoStep(final);
    this.end(accepted ? 'accepted' : 'rejected');
  }

  /** The range back to the original (no undo stop: with the streamed edits it nets to nothing), then the result as one undo step. */
  private async oneUndoStep(final: readonly string[]): Promise<void> {
    const editor = this.editor();
    // Without a visible editor the rows already hold the result: nothing to redo.
    if (!editor || this.range.stale) return;
    const restore = replaceRows(this.document, this.firstLine, final.length, this.original);
    if (restore) await this.range.own(() => editor.edit((b) => b.replace(restore.range, restore.newText), { undoStopBefore: false, undoStopAfter: false }));
    // Never placed by a line number the range had before that await.
    if (this.range.stale) return;
    const result = replaceRows(this.document, this.firstLine, this.original.length, final);
    if (result) await this.range.own(() => editor.edit((b) => b.replace(result.range, result.newText), { undoStopBefore: true, undoStopAfter: true }));
  }

  /** Stops and leaves the text as it is (the document changed inside the range, or closed). */
  abandon(): void {
    if (!this.active) return;
    this.controller.abort();
    this.end('abandoned');
  }

  private end(state: RunState): void {
    this.stateValue = state;
    this.queue = [];
    this.decorate();
    this.changed.fire();
    this.ended.fire(state);
  }

  private editor(): vscode.TextEditor | undefined {
    const active = vscode.window.activeTextEditor;
    if (active?.document === this.document) return active;
    return vscode.window.visibleTextEditors.find((e) => e.document === this.document);
  }

  private async drain(): Promise<void> {
    const edits = coalesce(this.queue.splice(0));
    for (const edit of edits) {
      if (!this.active) return;
      // Placed where the range is now, read after the previous edit's await.
      const text = toTextEdit(this.document, this.firstLine, edit);
      const editor = this.editor();
      const ok = await this.range.own(() => {
        if (editor) return editor.edit((b) => b.replace(text.range, text.newText), { undoStopBefore: false, undoStopAfter: false });
        const we = new vscode.WorkspaceEdit();
        we.replace(this.document.uri, text.range, text.newText);
        return vscode.workspace.applyEdit(we);
      });
      if (!ok) {
        this.abandon();
        return;
      }
    }
    this.decorate();
    this.changed.fire();
  }

  /** Someone else changed the range's text (or closed the document): the run stops. */
  private changedInside(): void {
    if (!this.active) return;
    if (!this.document.isClosed) void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: the document changed inside the range being edited, so the edit was stopped and its lines left as they are (Undo puts the range back).'));
    this.abandon();
  }

  /** Decorates the rows of every visible editor of the document. */
  decorate(): void {
    const d = this.active ? this.session.decorations() : { removed: [], added: [] };
    const ranges = (spans: readonly { row: number; count: number }[]): vscode.Range[] =>
      spans.map((s) => new vscode.Range(this.firstLine + s.row, 0, this.firstLine + s.row + s.count - 1, 0));
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document !== this.document) continue;
      editor.setDecorations(this.styles.removed, ranges(d.removed));
      editor.setDecorations(this.styles.added, ranges(d.added));
    }
  }

  dispose(): void {
    this.abandon();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
