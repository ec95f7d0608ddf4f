import * as vscode from 'vscode';
import type { TierBackoff } from '../../core/inlineCompletion';
import { EditHistory, NextEditEngine, type NextEditDocument, type NextEditResult, type NextEditSuggestion } from '../../core/nextEdit';
import type { Deps } from '../deps';
import type { GhostTextContext, GhostTextGates, ModelRef } from '../../services/ghostTextShare';
import { suggestionRange, type NextEditDecorations } from './decorations';
import { readNextEditSettings } from '../../platform/nextEditSettings';

/** Context keys the keybindings' `when` clauses read. */
export const NextEditContextKeys = {
  /** A suggestion is shown as a diff in the active editor: Tab and Esc are ours. */
  shown: 'stratus.nextEditShown',
  /** The cursor is on the suggestion's lines: Tab applies it (else Tab jumps there). */
  atSuggestion: 'stratus.nextEditAtSuggestion',
} as const;

/** What happened to the latest request, for the status bar and host tests. */
export type NextEditOutcome = 'shown' | 'ghostText' | 'excluded' | 'off' | 'stale' | NoSuggestionReason;
type NoSuggestionReason = Extract<NextEditResult, { kind: 'none' }>['reason'];

interface Shown {
  editor: vscode.TextEditor;
  suggestion: NextEditSuggestion;
}

/** An insertion at the cursor, offered to the ghost-text provider. */
interface GhostOffer {
  uri: string;
  version: number;
  offset: number;
  text: string;
}

/**
 * The editor side of next edit suggestions: records the user's edits into the core's history,
 * asks the engine after each edit (it waits for the idle pause, keeps one request in flight and
 * drops a result the document moved on from), and shows the result: a diff (decorations, the
 * context keys for Tab and Esc) or, for an insertion at the cursor, ghost text. Any change to the
 * document discards what is shown. Same gates as ghost text, plus: never in an ignored file or an
 * untrusted workspace.
 */
export class NextEditController implements vscode.Disposable {
  readonly history = new EditHistory(() => Date.now());
  private built: { backoff: TierBackoff; engine: NextEditEngine } | undefined;
  private shown: Shown | undefined;
  private ghost: GhostOffer | undefined;
  private request: AbortController | undefined;
  private generation = 0;
  private model: ModelRef = { id: '', maxModelLen: undefined };
  private lastError: unknown;
  private accepting = false;
  private readonly keys = { shown: false, atSuggestion: false };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Counters for host tests. */
  readonly counts = { requested: 0, off: 0, excluded: 0, shown: 0, ghostText: 0, accepted: 0, dismissed: 0, discarded: 0, stale: 0 };
  lastOutcome: NextEditOutcome | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly inline: GhostTextGates,
    private readonly collector: GhostTextContext,
    private readonly decorations: NextEditDecorations,
  ) {
    for (const document of vscode.workspace.textDocuments) this.track(document);
    this.subscriptions = [
      this.changed,
      vscode.workspace.onDidOpenTextDocument((document) => this.track(document)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.history.close(document.uri.toString());
        if (this.shown?.editor.document === document) this.clear();
      }),
      vscode.workspace.onDidChangeTextDocument((event) => this.onChange(event)),
      vscode.window.onDidChangeActiveTextEditor(() => this.dismiss('discarded')),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (event.textEditor === this.shown?.editor) this.present();
      }),
      vscode.window.onDidChangeTextEditorVisibleRanges((event) => {
        if (event.textEditor === this.shown?.editor) this.present();
      }),
      vscode.workspace.onDidChangeConfiguration(() => {
        if (!readNextEditSettings(this.shown?.editor.document ?? vscode.window.activeTextEditor?.document).enabled) this.dismiss('dismissed');
      }),
    ];
  }

  /** The engine, on the ghost-text engine's back-off (one tier throttle and one stop for both). */
  get engine(): NextEditEngine {
    const backoff = this.inline.engine.backoff;
    if (this.built?.backoff !== backoff) {
      this.built?.engine.cancel();
      this.built = { backoff, engine: this.createEngine(backoff) };
    }
    return this.built.engine;
  }

  private createEngine(backoff: TierBackoff): NextEditEngine {
    return new NextEditEngine({
      backoff,
      budget: this.inline.budget,
      history: this.history,
      model: () => this.model,
      documentNow: (id) => {
        const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === id && !d.isClosed);
        return document ? { version: document.version, text: document.getText() } : undefined;
      },
      complete: (request, signal) => {
        const stream = this.deps.inference.client().completeStream(request, { signal, purpose: 'nextEdit' });
        return {
          consume: (onEvent) => stream.consume(onEvent).catch((error: unknown) => {
            this.lastError = error;
            throw error;
          }),
        };
      },
      onStop: () => this.inline.reportStopped(this.lastError),
      onRequest: () => {
        this.counts.requested += 1;
        this.inline.refresh();
      },
    });
  }

  /** The suggestion shown as a diff, if any. */
  get current(): NextEditSuggestion | undefined {
    return this.shown?.suggestion;
  }

  /** The ghost-text provider asks first: an insertion at the cursor of this exact document version. */
  ghostTextAt(document: vscode.TextDocument, position: vscode.Position): string | undefined {
    const offer = this.ghost;
    if (!offer || offer.uri !== document.uri.toString() || offer.version !== document.version || document.offsetAt(position) !== offer.offset) return undefined;
    return offer.text;
  }

  /** The ghost text offered was accepted (its edit already arrived as a change). */
  ghostAccepted(): void {
    this.counts.accepted += 1;
  }

  private track(document: vscode.TextDocument): void {
    const scheme = document.uri.scheme;
    if (scheme !== 'file' && scheme !== 'untitled') return;
    this.history.open(document.uri.toString(), shownPath(document.uri), document.getText());
  }

  private onChange(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0) return;
    const id = event.document.uri.toString();
    if (!this.history.tracks(id)) this.track(event.document);
    else this.history.change(id, event.contentChanges.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })));
    // Typing discards what is shown, and cancels the request in flight (a newer one follows).
    if (this.shown?.editor.document === event.document) this.dismiss('discarded');
    if (this.ghost?.uri === id) this.ghost = undefined;
    const editor = vscode.window.activeTextEditor;
    if (this.accepting || editor?.document !== event.document) return;
    // A keystroke: the pause the shared budget waits for starts again (ghost text reports the same version once).
    this.inline.budget.keystroke(id, event.document.version);
    if (event.reason === vscode.TextDocumentChangeReason.Undo || event.reason === vscode.TextDocumentChangeReason.Redo) {
      this.cancelRequest();
      return;
    }
    this.schedule(editor);
  }

  /**
   * The other documents whose recent edits may be shown to the model, decided now (a file may have
   * become ignored since its edits: files.exclude, search.exclude, a .gitignore): each distinct
   * document of the history (a dozen at most) asked in parallel. One edited later is left out.
   */
  private async othersAllowed(current: string): Promise<ReadonlySet<string>> {
    const ids = [...new Set(this.history.edits().map((e) => e.documentId))].filter((id) => id !== current);
    const verdicts = await Promise.all(ids.map((id) => this.collector.mayContribute(vscode.Uri.parse(id)).catch(() => false)));
    return new Set(ids.filter((_, k) => verdicts[k] === true));
  }

  /** Asks for a next edit in `editor` as it is now (the engine waits for the idle pause). */
  schedule(editor: vscode.TextEditor): void {
    this.cancelRequest();
    const abort = new AbortController();
    this.request = abort;
    const generation = ++this.generation;
    void this.run(editor, abort.signal, generation).catch((error: unknown) => this.deps.logger.warn('Next edit suggestion failed', error));
  }

  private async run(editor: vscode.TextEditor, signal: AbortSignal, generation: number): Promise<void> {
    // The selection event of a keystroke follows its change event: read the cursor after it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (generation !== this.generation) return;
    const document = editor.document;
    const snapshot: NextEditDocument = {
      id: document.uri.toString(),
      version: document.version,
      languageId: document.languageId,
      relativePath: shownPath(document.uri),
      text: document.getText(),
      cursor: document.offsetAt(editor.selection.active),
    };
    const settle = (outcome: NextEditOutcome): void => {
      if (generation !== this.generation) return;
      this.lastOutcome = outcome;
      this.changed.fire();
    };
    if (!readNextEditSettings(document).enabled || (await this.inline.blocked(document)) !== undefined) {
      this.counts.off += 1;
      return settle('off');
    }
    // Never a request from an ignored file or an untrusted workspace (the ghost-text context gate).
    if (!(await this.collector.mayContribute(document.uri))) {
      this.counts.excluded += 1;
      return settle('excluded');
    }
    if (signal.aborted) return;
    const model = await this.inline.resolveModelFor(readNextEditSettings(document).model, signal);
    if (!model || signal.aborted) return;
    this.model = model;
    const position = document.positionAt(snapshot.cursor);
    const [snippets, others] = await Promise.all([this.collector.collect(document, position, signal), this.othersAllowed(snapshot.id)]);
    if (signal.aborted) return;
    const tabSize = typeof editor.options.tabSize === 'number' ? editor.options.tabSize : undefined;
    const result = await this.engine.suggest(snapshot, {
      snippets,
      includeSnippet: () => this.collector.mayReadContext(),
      includeDocument: (id) => id === snapshot.id || (this.collector.mayReadContext() && others.has(id)),
      ...(tabSize !== undefined ? { tabSize } : {}),
    }, signal);
    if (generation !== this.generation || signal.aborted) return;
    if (result.kind === 'none') return settle(result.reason);
    // The document moved on, or the user left the editor, while the model answered: dropped unseen.
    if (document.version !== result.suggestion.version || vscode.window.activeTextEditor !== editor) {
      this.counts.stale += 1;
      return settle('stale');
    }
    this.show(editor, result.suggestion);
    settle(this.ghost ? 'ghostText' : 'shown');
  }

  private show(editor: vscode.TextEditor, suggestion: NextEditSuggestion): void {
    // Ghost text only where the insertion goes: a cursor moved while the model answered gets the diff view.
    const at = suggestion.edits[0]?.start;
    if (suggestion.location === 'atCursor' && suggestion.ghostText !== undefined && at === editor.document.offsetAt(editor.selection.active)) {
      this.ghost = { uri: suggestion.documentId, version: suggestion.version, offset: at, text: suggestion.ghostText };
      this.counts.ghostText += 1;
      void vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      return;
    }
    this.shown = { editor, suggestion };
    this.counts.shown += 1;
    this.present();
  }

  /** Renders what is shown (after it changed, the cursor moved or the view scrolled). */
  private present(): void {
    const shown = this.shown;
    if (!shown) return;
    const range = suggestionRange(shown.suggestion);
    const cursor = shown.editor.selection.active;
    const visible = shown.editor.visibleRanges.some((r) => r.intersection(range) !== undefined);
    const hint = visible ? undefined : { line: cursor.line, text: this.locationText() ?? '' };
    this.decorations.render(shown.editor, shown.suggestion, hint);
    this.setKeys(true, cursor.line >= range.start.line && cursor.line <= range.end.line);
    this.changed.fire();
  }

  /** "Next edit: line 120 — Tab" while a suggestion is shown out of view. */
  locationText(): string | undefined {
    const shown = this.shown;
    if (!shown) return undefined;
    return vscode.l10n.t('Next edit: line {0} — Tab', shown.suggestion.jumpTo.line + 1);
  }

  /** Whether what is shown is out of the editor's view. */
  outOfView(): boolean {
    const shown = this.shown;
    if (!shown) return false;
    const range = suggestionRange(shown.suggestion);
    return !shown.editor.visibleRanges.some((r) => r.intersection(range) !== undefined);
  }

  /** Tab, the first time: the cursor to the suggestion, and the view with it. */
  jump(): void {
    const shown = this.shown;
    if (!shown) return;
    const at = new vscode.Position(shown.suggestion.jumpTo.line, shown.suggestion.jumpTo.character);
    shown.editor.selection = new vscode.Selection(at, at);
    shown.editor.revealRange(suggestionRange(shown.suggestion), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.present();
  }

  /** Tab at the suggestion: applies it as one undoable edit; the next suggestion may follow. */
  async accept(): Promise<boolean> {
    const shown = this.shown;
    if (!shown) return false;
    const { editor, suggestion } = shown;
    this.clear();
    if (editor.document.version !== suggestion.version) {
      this.counts.stale += 1;
      return false;
    }
    this.accepting = true;
    let applied = false;
    try {
      applied = await editor.edit((builder) => {
        for (const e of suggestion.edits) builder.replace(new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), e.newText);
      }, { undoStopBefore: true, undoStopAfter: true });
    } finally {
      this.accepting = false;
    }
    if (!applied) return false;
    this.counts.accepted += 1;
    // The cursor after the last replacement (offsets shifted by the ones before it).
    const last = suggestion.edits.at(-1);
    if (last) {
      const shift = suggestion.edits.slice(0, -1).reduce((sum, e) => sum + e.newText.length - (e.end - e.start), 0);
      const end = editor.document.positionAt(last.start + shift + last.newText.length);
      editor.selection = new vscode.Selection(end, end);
    }
    this.schedule(editor);
    return true;
  }

  /** Esc (`dismissed`), or typing and leaving the editor (`discarded`): nothing shown, nothing in flight. */
  dismiss(how: 'dismissed' | 'discarded'): void {
    const had = this.shown !== undefined || this.ghost !== undefined;
    this.cancelRequest();
    this.ghost = undefined;
    this.clear();
    if (had) this.counts[how] += 1;
  }

  private cancelRequest(): void {
    this.generation += 1;
    this.request?.abort();
    this.request = undefined;
    this.built?.engine.cancel();
  }

  private clear(): void {
    const had = this.shown !== undefined;
    this.shown = undefined;
    this.decorations.clear();
    this.setKeys(false, false);
    if (had) this.changed.fire();
  }

  private setKeys(shown: boolean, atSuggestion: boolean): void {
    if (this.keys.shown !== shown) void vscode.commands.executeCommand('setContext', NextEditContextKeys.shown, shown);
    if (this.keys.atSuggestion !== atSuggestion) void vscode.commands.executeCommand('setContext', NextEditContextKeys.atSuggestion, atSuggestion);
    this.keys.shown = shown;
    this.keys.atSuggestion = atSuggestion;
  }

  /** The context keys as last set (host tests). */
  contextKeys(): Readonly<{ shown: boolean; atSuggestion: boolean }> {
    return { ...this.keys };
  }

  dispose(): void {
    this.cancelRequest();
    this.clear();
    for (const d of this.subscriptions) d.dispose();
  }
}

/** The path the model sees: relative to its folder, with the folder's name in a multi-root workspace. */
function shownPath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, true);
}
