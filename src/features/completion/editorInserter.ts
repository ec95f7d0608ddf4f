import * as vscode from 'vscode';

/** Tries of one insertion that keeps meeting a document changed under it (the user typing fast). */
const MAX_ATTEMPTS = 20;
/** Longest wait for the document to catch up before trying an edit again. */
const RETRY_WAIT_MS = 50;

/**
 * Streams text into an editor at a moving insertion point. Deltas are batched and applied one
 * edit at a time; only the first edit opens an undo stop, so one Undo removes the whole completion.
 *
 * The insertion point is kept as a document offset and moved by every change to the document:
 * text typed or deleted above it shifts it, so the completion keeps growing where it started.
 * When the editor refuses an edit (its tab was switched away or closed), `onRefused` is told once
 * and nothing more is inserted.
 */
export class EditorInserter implements vscode.Disposable {
  private pending = '';
  private chain: Promise<void> = Promise.resolve();
  private first = true;
  private timer: NodeJS.Timeout | undefined;
  private offset: number;
  private readonly subscription: vscode.Disposable;
  /** Characters inserted so far. */
  inserted = 0;
  /** The editor refused an edit: the completion cannot go on. */
  refused = false;

  constructor(
    private readonly editor: vscode.TextEditor,
    position: vscode.Position,
    private readonly onRefused: () => void,
  ) {
    const document = editor.document;
    this.offset = document.offsetAt(position);
    this.subscription = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document) this.track(event.contentChanges);
    });
  }

  /** Where the next text goes, as an offset in the document. */
  get insertionOffset(): number {
    return this.offset;
  }

  push(text: string): void {
    if (!text || this.refused) return;
    this.pending += text;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.schedule();
    }, 30);
  }

  /** Applies everything pushed so far. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.schedule();
    await this.chain;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.subscription.dispose();
  }

  /**
   * Moves the insertion point through a document change. A change that ends at or before it
   * (our own insertion included: it lands exactly there) shifts it by the change's length
   * difference; a change that replaces text around it moves it to the end of the replacement.
   */
  private track(changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
    // Changes of one event refer to the document before the event; apply them from the end.
    const ordered = [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset);
    for (const change of ordered) {
      const end = change.rangeOffset + change.rangeLength;
      if (end <= this.offset) this.offset += change.text.length - change.rangeLength;
      else if (change.rangeOffset < this.offset) this.offset = change.rangeOffset + change.text.length;
    }
  }

  private schedule(): void {
    const text = this.pending;
    this.pending = '';
    if (!text || this.refused) return;
    this.chain = this.chain.then(async () => {
      if (this.refused) return;
      const undoStopBefore = this.first;
      this.first = false;
      if (await this.insert(text, undoStopBefore)) this.inserted += text.length;
      else this.refuse();
    });
  }

  /**
   * Inserts `text` at the insertion point. A hidden or closed editor rejects the edit: refused.
   * An edit made while the document changed under it (the user typing) answers false: it is
   * tried again once the document has caught up, at the moved insertion point.
   */
  private async insert(text: string, undoStopBefore: boolean): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const at = this.editor.document.positionAt(this.offset);
      const applied = await this.editor.edit((edit) => edit.insert(at, text), { undoStopBefore, undoStopAfter: false }).then((ok) => ok, () => undefined);
      if (applied === true) return true;
      if (applied === undefined || !this.isShown()) return false;
      await this.nextChange();
    }
    return false;
  }

  private isShown(): boolean {
    return !this.editor.document.isClosed && vscode.window.visibleTextEditors.includes(this.editor);
  }

  /** Resolves on the next change of the document, or soon anyway (the change may already be in). */
  private nextChange(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      };
      const timer = setTimeout(done, RETRY_WAIT_MS);
      const listener = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === this.editor.document) done();
      });
    });
  }

  private refuse(): void {
    if (this.refused) return;
    this.refused = true;
    this.pending = '';
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.onRefused();
  }
}
