import * as path from 'node:path';
import * as vscode from 'vscode';
import { DocumentError } from '../../core/documents/errors';
import { documentMarkdown } from '../../core/documents/markdown';
import { openDocument } from '../../core/documents/open';
import { planPages } from '../../core/documents/plan';
import { failureReason, ocrReader, readPages } from '../../core/documents/run';
import { toAbortSignal } from '../../platform/cancellation';
import type { Deps } from '../deps';
import type { ExtractResult } from './extract';
import { DocumentCommands } from './ids';
import { pickOcrModel } from './models';
import { loadPdfJs } from './pdfjs';
import { readDocumentSettings } from './settings';

interface BinaryLike {
  mimeType: string;
  data(): Thenable<Uint8Array>;
}
function isBinary(value: unknown): value is BinaryLike {
  return typeof value === 'object' && value !== null && typeof (value as { mimeType?: unknown }).mimeType === 'string' && typeof (value as { data?: unknown }).data === 'function';
}

/** Markdown shown in the chat at most; the rest is one click away (Open as Markdown). */
const MAX_CHAT_CHARS = 12_000;

/**
 * `@stratus /ocr` with an attached file (read like the command: the document view opens, pages
 * fill in) or a pasted image (read here), the Markdown answered in the chat.
 */
export function registerOcrChatCommand(deps: Deps, extract: (uri: vscode.Uri, options?: unknown) => Promise<ExtractResult | undefined>): vscode.Disposable {
  return deps.chatCommands.register({
    name: 'ocr',
    async handle(request, _context, stream, token): Promise<vscode.ChatResult> {
      const reference = request.references.find((r) => r.value instanceof vscode.Uri || r.value instanceof vscode.Location || isBinary(r.value));
      const value = reference?.value;
      const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
      if (uri) {
        stream.progress(vscode.l10n.t('Reading {0}…', path.basename(uri.path)));
        const result = await extract(uri);
        if (!result) {
          stream.markdown(vscode.l10n.t('{0} was not read (see the notification).', path.basename(uri.path)));
          return { metadata: { command: 'ocr', error: true } };
        }
        stream.reference(uri);
        const cut = result.markdown.length > MAX_CHAT_CHARS;
        stream.markdown(cut ? `${result.markdown.slice(0, MAX_CHAT_CHARS)}\n\n…` : result.markdown);
        stream.button({ command: DocumentCommands.openMarkdown, title: vscode.l10n.t('Open as Markdown'), arguments: [result.sessionId] });
        stream.button({ command: DocumentCommands.saveMarkdown, title: vscode.l10n.t('Save next to the file'), arguments: [result.sessionId] });
        return { metadata: { command: 'ocr', sessionId: result.sessionId, pages: result.pages.length } };
      }
      if (value !== undefined && isBinary(value)) {
        const name = reference?.id.split(/[\\/]/).pop() || 'image';
        const abort = toAbortSignal(token);
        try {
          const source = await openDocument(await value.data(), name, loadPdfJs, undefined);
          try {
            const infos = [];
            for (let n = 1; n <= Math.min(source.pageCount, readDocumentSettings().maxPages); n++) infos.push(await source.info(n));
            const plan = planPages(infos, 'auto');
            const model = plan.some((p) => p.action === 'ocr') ? await pickOcrModel(deps, readDocumentSettings().model, false, abort.signal) : undefined;
            const read = model ? ocrReader(deps.inference.client(), model) : () => Promise.reject(new Error('no OCR model is available'));
            const pages = await readPages({ source, plan, read, model: model?.id ?? '', concurrency: readDocumentSettings().concurrency, signal: abort.signal });
            stream.markdown(documentMarkdown(name, pages));
            return { metadata: { command: 'ocr', pages: pages.length } };
          } finally {
            await source.close();
          }
        } catch (error) {
          stream.markdown(`**${vscode.l10n.t('Could not read {0}.', name)}** ${error instanceof DocumentError ? error.message : failureReason(error)}`);
          return { metadata: { command: 'ocr', error: true } };
        } finally {
          abort.dispose();
        }
      }
      stream.markdown(vscode.l10n.t('Attach a PDF or an image to `/ocr` (drag it into the chat input or use **Add Context…**): its pages come back as Markdown, tables included.'));
      stream.button({ command: DocumentCommands.extract, title: vscode.l10n.t('Extract Text from Document…') });
      return { metadata: { command: 'ocr', error: true } };
    },
  });
}
