import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import { toAbortSignal } from '../../platform/cancellation';
import type { ContextCollector } from './context';
import type { InlineController } from './controller';
import { sizeOf, type CompletionTelemetrySink } from './telemetry';

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
  constructor(
    private readonly controller: InlineController,
    private readonly context: ContextCollector,
    private readonly telemetry: () => CompletionTelemetrySink,
    private readonly logger: Logger,
  ) {}

  async provideInlineCompletionItems(document: vscode.TextDocument, position: vscode.Position, _context: vscode.InlineCompletionContext, token: vscode.CancellationToken): Promise<vscode.InlineCompletionItem[] | undefined> {
    if (token.isCancellationRequested) return undefined;
    const abort = toAbortSignal(token);
    try {
      if ((await this.controller.blocked(document)) !== undefined) return undefined;
      const model = await this.controller.resolveModel(abort.signal);
      if (!model || abort.signal.aborted) return undefined;
      const snippets = await this.context.collect(document, abort.signal);
      if (abort.signal.aborted) return undefined;
      const items = await this.controller.engine.provide(
        {
          id: document.uri.toString(),
          languageId: document.languageId,
          relativePath: vscode.workspace.asRelativePath(document.uri, false),
          text: document.getText(),
          offset: document.offsetAt(position),
        },
        { snippets, includeSnippet: () => vscode.workspace.isTrusted },
        abort.signal,
      );
      if (!items || items.length === 0 || abort.signal.aborted) return undefined;
      const first = items[0];
      if (first && first.source !== 'typeAhead') this.telemetry().shown(sizeOf(first.insertText));
      return items.map((item) => {
        const size = sizeOf(item.insertText);
        return new vscode.InlineCompletionItem(item.insertText, new vscode.Range(position, position), { title: vscode.l10n.t('Accept'), command: ACCEPTED_COMMAND, arguments: [size] });
      });
    } catch (error) {
      // Nothing may block typing: a failure here is logged and leaves no ghost text.
      this.logger.warn('Inline completion failed', error);
      return undefined;
    } finally {
      abort.dispose();
    }
  }
}
