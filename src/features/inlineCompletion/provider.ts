import * as vscode from 'vscode';
import type { InlineItem } from '../../core/inlineCompletion';
import type { Logger } from '../../core/log';
import { toAbortSignal } from '../../platform/cancellation';
import type { ContextCollector } from './context';
import type { InlineController } from './controller';
import { sizeOf, type CompletionTelemetrySink } from './telemetry';
import type { GhostTextOffer } from '../../services/ghostTextShare';

/** Internal command each suggestion runs when Tab accepts it (records the acceptance). */
export const ACCEPTED_COMMAND = 'stratus.inlineCompletion.accepted';

/** Documents the provider serves: files and untitled editors of every language. */
export const INLINE_SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }];

/**
 * Ghost text from the inline completion engine: a thin adapter that snapshots the document,
 * collects the context, turns VS Code's cancellation into an AbortSignal and returns the engine's
 * items. It never throws and never waits on anything but the (debounced, abortable) request.
 */
export class StratusInlineProvider implements vscode.InlineCompletionItemProvider {
  /** Set by the composition root (next edit suggestions); asked first. */
  offer: GhostTextOffer | undefined;

  /** Requests whose suggestion was counted as shown (a suggestion typed ahead is the same one). */
  private readonly shownRequests: number[] = [];
  /** The engine they were numbered by (a new engine numbers from 1 again). */
  private numberedBy: unknown;

  constructor(
    private readonly controller: InlineController,
    private readonly context: ContextCollector,
    private readonly telemetry: () => CompletionTelemetrySink,
    private readonly logger: Logger,
  ) {}

  async provideInlineCompletionItems(document: vscode.TextDocument, position: vscode.Position, context: vscode.InlineCompletionContext, token: vscode.CancellationToken): Promise<vscode.InlineCompletionItem[] | undefined> {
    if (token.isCancellationRequested) return undefined;
    const offered = this.offer?.(document, position);
    if (offered) return [new vscode.InlineCompletionItem(offered.text, new vscode.Range(position, position), offered.accepted)];
    // The text, the cursor and the version as they are now, before any await: the request is made
    // for them, and its items are placed at `position` only if the document is still that version.
    const version = document.version;
    const text = document.getText();
    const offset = document.offsetAt(position);
    const abort = toAbortSignal(token);
    // This keystroke opens a pause of the budget shared with next edits; ghost text holds its
    // first place in it while it gathers the context (awaits) before asking.
    this.controller.budget.keystroke(document.uri.toString(), version, offset);
    const release = this.controller.budget.holdForGhostText();
    try {
      if ((await this.controller.blocked(document)) !== undefined) return undefined;
      const model = await this.controller.resolveModel(abort.signal);
      if (!model || abort.signal.aborted) return undefined;
      const snippets = await this.context.collect(document, position, abort.signal);
      if (abort.signal.aborted) return undefined;
      const engine = this.controller.engine;
      if (engine !== this.numberedBy) {
        this.numberedBy = engine;
        this.shownRequests.length = 0;
      }
      const items = await engine.provide(
        {
          id: document.uri.toString(),
          languageId: document.languageId,
          relativePath: vscode.workspace.asRelativePath(document.uri, false),
          text,
          offset,
          version,
        },
        { snippets, includeSnippet: () => this.context.mayReadContext() },
        abort.signal,
        // Alt+\ or cycling (Alt+] / Alt+[): a fresh suggestion as well as the one already shown.
        { explicit: context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke },
      );
      if (!items || items.length === 0 || abort.signal.aborted) return undefined;
      // Changed while the model answered (an edit above, a format, another extension): the suggestion
      // would land at a position that now means other text. VS Code asks again for the new text.
      if (document.version !== version) return undefined;
      const first = items[0];
      if (first && this.firstShown(first)) this.telemetry().shown(sizeOf(first.insertText));
      // Several items (a fresh suggestion and the one typed ahead, deduplicated): Alt+] / Alt+[ cycle.
      // A plain text item also gets VS Code's partial accept (Ctrl+Right: word by word).
      return items.map((item) => {
        const size = sizeOf(item.insertText);
        return new vscode.InlineCompletionItem(item.insertText, new vscode.Range(position, position), { title: vscode.l10n.t('Accept'), command: ACCEPTED_COMMAND, arguments: [size] });
      });
    } catch (error) {
      // Nothing may block typing: a failure here is logged and leaves no ghost text.
      this.logger.warn('Inline completion failed', error);
      return undefined;
    } finally {
      release();
      abort.dispose();
    }
  }

  /** Whether `item` is shown for the first time: a new answer, or one received unseen and now typed ahead. */
  private firstShown(item: InlineItem): boolean {
    if (item.requestSeq === undefined) return item.source !== 'typeAhead';
    if (this.shownRequests.includes(item.requestSeq)) return false;
    this.shownRequests.push(item.requestSeq);
    if (this.shownRequests.length > 64) this.shownRequests.shift();
    return true;
  }
}
