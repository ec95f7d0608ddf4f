import * as vscode from 'vscode';
import { moveLinesThrough, type LineSpan, type TextChange } from '../core/edit/anchoredLines';

/** A VS Code content change as the pure arithmetic reads it. */
export function toTextChange(change: vscode.TextDocumentContentChangeEvent): TextChange {
  const { start, end } = change.range;
  return { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character }, text: change.text };
}

/**
 * Whole lines of a document chosen at one moment (an edit's target, a quick fix's range) that
 * follow every later change: moved by changes above, stale once their text is touched or the
 * document closes. Read `span` after any await instead of the line numbers captured before it.
 */
export class AnchoredLines implements vscode.Disposable {
  private current: LineSpan | undefined;
  private ownEdits = 0;
  private readonly staled = new vscode.EventEmitter<void>();
  /** Fires once, when the lines go stale. */
  readonly onDidGoStale = this.staled.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    readonly document: vscode.TextDocument,
    span: LineSpan,
  ) {
    this.current = span;
    this.subscriptions = [
      this.staled,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === document && e.contentChanges.length > 0) this.follow(e.contentChanges);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === document) this.goStale();
      }),
    ];
  }

  /** Where the lines are now; undefined once stale. */
  get span(): LineSpan | undefined {
    return this.current;
  }

  get stale(): boolean {
    return this.current === undefined;
  }

  /** Runs the owner's own edit of these lines: its changes resize them instead of making them stale. */
  async own<T>(edit: () => Thenable<T>): Promise<T> {
    this.ownEdits++;
    try {
      return await edit();
    } finally {
      this.ownEdits--;
    }
  }

  private follow(changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
    if (!this.current) return;
    const moved = moveLinesThrough(this.current, changes.map(toTextChange), { own: this.ownEdits > 0 });
    if (moved === 'stale') this.goStale();
    else this.current = moved;
  }

  /** The owner learnt the lines are no longer the chosen text (e.g. found in text that changed meanwhile). */
  markStale(): void {
    this.goStale();
  }

  private goStale(): void {
    if (!this.current) return;
    this.current = undefined;
    this.staled.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
