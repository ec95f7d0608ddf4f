import * as vscode from 'vscode';
import { EditSession, type RowEdit } from '../../core/edit';
import { coalesce, linesOf, replaceRows, toTextEdit } from './documentEdits';

/** How a run ended, or where it stands. */
export type RunState = 'streaming' | 'review' | 'accepted' | 'rejected' | 'abandoned';

/**
 * One edit by instruction in one document: the session's row edits applied in order (without undo
 * stops, so they never become undo steps of their own), the diff decorations, and the end: the
 * range put back to its original text and the result applied as ONE undo step. A change the user
 * makes inside the range abandons the run (the text is left as it is); one above it moves it.
 */
export class EditRun implements vscode.Disposable {
  readonly session: EditSession;
  readonly original: readonly string[];
  private queue: RowEdit[] = [];
  private chain: Promise<void> = Promise.resolve();
  private applying = 0;
  private stateValue: RunState = 'streaming';
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the rows, the hunks or the state changed (CodeLens, context keys). */
  readonly onDidChange = this.changed.event;
  private readonly ended = new vscode.EventEmitter<RunState>();
  readonly onDidEnd = this.ended.event;
  readonly controller = new AbortController();

  constructor(
    readonly document: vscode.TextDocument,
    /** The range's first line, moved by changes above it. */
    public firstLine: number,
    lineCount: number,
    readonly instruction: string,
    private readonly styles: { removed: vscode.TextEditorDecorationType; added: vscode.TextEditorDecorationType },
  ) {
    this.original = linesOf(document, firstLine, lineCount);
    this.session = new EditSession(this.original);
    this.subscriptions.push(
      this.changed,
      this.ended,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.document && this.applying === 0 && e.contentChanges.length > 0) this.foreign(e.contentChanges);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === this.document) this.abandon();
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
    );
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
    this.applying++;
    try {
      if (editor) {
        const restore = replaceRows(this.document, this.firstLine, final.length, this.original);
        if (restore) await editor.edit((b) => b.replace(restore.range, restore.newText), { undoStopBefore: false, undoStopAfter: false });
        const result = replaceRows(this.document, this.firstLine, this.original.length, final);
        if (result) await editor.edit((b) => b.replace(result.range, result.newText), { undoStopBefore: true, undoStopAfter: true });
      }
      // Without a visible editor the rows already hold the result: nothing to redo.
    } finally {
      this.applying--;
    }
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
      const text = toTextEdit(this.document, this.firstLine, edit);
      const editor = this.editor();
      this.applying++;
      let ok: boolean;
      try {
        if (editor) ok = await editor.edit((b) => b.replace(text.range, text.newText), { undoStopBefore: false, undoStopAfter: false });
        else {
          const we = new vscode.WorkspaceEdit();
          we.replace(this.document.uri, text.range, text.newText);
          ok = await vscode.workspace.applyEdit(we);
        }
      } finally {
        this.applying--;
      }
      if (!ok) {
        this.abandon();
        return;
      }
    }
    this.decorate();
    this.changed.fire();
  }

  private foreign(changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
    const rows = this.session.rowCount();
    for (const change of changes) {
      const added = change.text.split('\n').length - 1;
      const removed = change.range.end.line - change.range.start.line;
      if (change.range.end.line < this.firstLine) this.firstLine += added - removed;
      else if (change.range.start.line >= this.firstLine + rows && !(change.range.start.line === this.firstLine + rows && rows === 0)) continue;
      else {
        if (this.active) void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: the document changed inside the range being edited, so the edit was stopped and its lines left as they are (Undo puts the range back).'));
        this.abandon();
        return;
      }
    }
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
