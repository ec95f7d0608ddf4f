import * as vscode from 'vscode';
import { moveLinesSince, type LineSpan, type VersionedChanges } from '../core/edit/anchoredLines';
import { toTextChange } from './anchoredLines';

/** Change events kept per open document (older ones: lines chosen before them are stale). */
const KEPT_EVENTS = 200;

/**
 * The recent change events of every open document, by version, so lines chosen in an earlier
 * version (a quick fix's range, captured when the light bulb was computed) can be found where they
 * are now, or known stale. Forgotten when a document closes.
 */
export class DocumentChangeLog implements vscode.Disposable {
  private readonly journals = new Map<vscode.TextDocument, { version: number; events: VersionedChanges[] }>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    for (const document of vscode.workspace.textDocuments) this.journals.set(document, { version: document.version, events: [] });
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((document) => this.journals.set(document, { version: document.version, events: [] })),
      vscode.workspace.onDidCloseTextDocument((document) => this.journals.delete(document)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        const journal = this.journals.get(e.document);
        if (!journal) {
          this.journals.set(e.document, { version: e.document.version, events: [] });
          return;
        }
        journal.events.push({ from: journal.version, to: e.document.version, changes: e.contentChanges.map(toTextChange) });
        if (journal.events.length > KEPT_EVENTS) journal.events.shift();
        journal.version = e.document.version;
      }),
    ];
  }

  /** Lines chosen in `version` of `document`, where they are now; undefined when stale or too old to tell. */
  linesNow(document: vscode.TextDocument, version: number, span: LineSpan): LineSpan | undefined {
    const journal = this.journals.get(document);
    if (!journal || journal.version !== document.version) return version === document.version ? span : undefined;
    const moved = moveLinesSince(span, version, document.version, journal.events);
    return moved === 'stale' ? undefined : moved;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.journals.clear();
  }
}
