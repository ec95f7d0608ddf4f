import * as vscode from 'vscode';

/**
 * Streams text into an editor at a moving position. Deltas are batched and applied one edit at a
 * time; only the first edit opens an undo stop, so one Undo removes the whole completion.
 */
export class EditorInserter {
  private pending = '';
  private chain: Promise<void> = Promise.resolve();
  private first = true;
  private timer: NodeJS.Timeout | undefined;
  /** Characters inserted so far. */
  inserted = 0;

  constructor(
    private readonly editor: vscode.TextEditor,
    private position: vscode.Position,
  ) {}

  push(text: string): void {
    if (!text) return;
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

  private schedule(): void {
    const text = this.pending;
    this.pending = '';
    if (!text) return;
    this.chain = this.chain.then(async () => {
      const at = this.position;
      const undoStopBefore = this.first;
      this.first = false;
      const applied = await this.editor.edit((edit) => edit.insert(at, text), { undoStopBefore, undoStopAfter: false });
      if (!applied) throw new Error('The editor refused the edit (was it closed?).');
      const document = this.editor.document;
      this.position = document.positionAt(document.offsetAt(at) + text.length);
      this.inserted += text.length;
    });
  }
}
