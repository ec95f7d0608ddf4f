import * as path from 'node:path';
import * as vscode from 'vscode';
import { DocumentCache } from '../../core/documents/cache';
import { DocumentError } from '../../core/documents/errors';
import { toAbortSignal } from '../../platform/cancellation';
import { DisposableStore } from '../../platform/disposables';
import { showError } from '../../platform/errorNotification';
import type { Deps } from '../deps';
import { FileCacheStore } from './cacheStore';
import { registerOcrChatCommand } from './chat';
import { parseExtractOptions, startExtraction, summary, type ExtractOptions, type ExtractResult } from './extract';
import { ocrBatchJobs, type OcrBatchOutcome } from './ocrBatch';
import type { BatchJobService } from '../../services/batchJobs';
import type { BatchMode } from '../../platform/batchJobUi';
import type { PageReader } from '../../core/documents/run';
import type { OcrModel } from './models';
import { DOCUMENT_EXTENSIONS, DocumentCommands, READ_DOCUMENT_TOOL } from './ids';
import { ReadDocumentTool } from './tool';
import type { DocumentSession } from './session';
import { DocumentPanel } from './view';

/** Document view internals for host tests (ExtensionMode.Test only). */
export interface DocumentsTestApi {
  panels(): readonly DocumentPanel[];
  session(id: string): DocumentSession | undefined;
  /** Read now or as a batch (`batchMode` answers the question). */
  runBatch(uri: vscode.Uri, options: ExtractOptions & { batchMode: BatchMode }): Promise<OcrBatchOutcome>;
  /** A completed OCR job's pages shown in the view. */
  applyBatch(jobId: string): Promise<OcrBatchOutcome>;
}

export interface DocumentsFeature {
  readonly disposable: vscode.Disposable;
  readonly testApi: DocumentsTestApi;
}

export function register(deps: Deps, context: { extensionUri: vscode.Uri; storageUri: vscode.Uri | undefined; globalStorageUri: vscode.Uri }, batchJobs: BatchJobService): DocumentsFeature {
  const store = new DisposableStore();
  const storage = context.storageUri?.scheme === 'file' ? context.storageUri : context.globalStorageUri.scheme === 'file' ? context.globalStorageUri : undefined;
  const cache = new DocumentCache(new FileCacheStore(storage ? path.join(storage.fsPath, 'documents') : undefined));
  const panels = new Map<string, DocumentPanel>();
  let lastSession: DocumentSession | undefined;

  const openMarkdown = async (session: DocumentSession): Promise<string> => {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: session.markdown() });
    await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    return document.uri.toString();
  };

  const save = async (session: DocumentSession, replace?: boolean): Promise<string | undefined> => {
    const folder = session.uri ? vscode.Uri.joinPath(session.uri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) return undefined;
    const name = `${session.fileName.replace(/\.[^.]+$/, '') || 'document'}.md`;
    const target = vscode.Uri.joinPath(folder, name);
    const exists = await vscode.workspace.fs.stat(target).then(() => true, () => false);
    if (exists && replace !== true) {
      if (replace === false) return undefined;
      const choice = vscode.l10n.t('Replace');
      const answer = await vscode.window.showWarningMessage(vscode.l10n.t('{0} already exists. Replace it?', name), { modal: true }, choice);
      if (answer !== choice) return undefined;
    }
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(session.markdown()));
    const open = vscode.l10n.t('Open');
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: saved {0}.', name), open).then((c) => (c === open ? vscode.window.showTextDocument(target) : undefined));
    return target.toString();
  };

  const showPanel = (session: DocumentSession): DocumentPanel => {
    const panel = new DocumentPanel(context.extensionUri, session, { openMarkdown, save: (s) => save(s) }, deps.logger);
    panels.set(session.id, panel);
    panel.onDidDispose(() => {
      panels.delete(session.id);
      if (lastSession !== session) session.dispose();
    });
    return panel;
  };

  const sessionOf = (argument: unknown): DocumentSession | undefined => (typeof argument === 'string' ? panels.get(argument)?.session ?? (lastSession?.id === argument ? lastSession : undefined) : lastSession);

  /** The document to read: the argument, else one picked; undefined when Stratus is not configured or none was picked. */
  const documentUri = async (uriArgument: unknown): Promise<vscode.Uri | undefined> => {
    const configured = await deps.inference.isConfigured();
    if (!configured.apiKey || !configured.baseUrl) {
      void vscode.window.showErrorMessage(configured.apiKey ? vscode.l10n.t('Stratus is not configured: set stratus.inference.baseUrl.') : vscode.l10n.t('Stratus is not configured: set your API key.'));
      return undefined;
    }
    if (uriArgument instanceof vscode.Uri) return uriArgument;
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Stratus: Extract Text from Document'),
      openLabel: vscode.l10n.t('Extract Text'),
      canSelectMany: false,
      filters: { [vscode.l10n.t('Documents and images')]: [...DOCUMENT_EXTENSIONS], [vscode.l10n.t('All files')]: ['*'] },
    });
    return picked?.[0];
  };

  const extract = async (uriArgument?: unknown, optionsArgument?: unknown): Promise<ExtractResult | undefined> => {
    const uri = await documentUri(uriArgument);
    return uri ? extractWith(uri, parseExtractOptions(optionsArgument)) : undefined;
  };

  /** Reads the document into the view; `reader` reads its OCR pages (default: the model, now). */
  const extractWith = async (uri: vscode.Uri, options: ExtractOptions, reader?: (model: OcrModel) => PageReader): Promise<ExtractResult | undefined> => {
    const fileName = path.basename(uri.path);
    try {
      const started = await startExtraction(deps, cache, uri, options, (session, read) =>
        Promise.resolve(
          vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Stratus: reading {0}', fileName), cancellable: true }, async (progress, token) => {
            const abort = toAbortSignal(token);
            const total = Math.max(1, session.pages().filter((p) => p.status !== 'done').length);
            let finished = 0;
            progress.report({ message: vscode.l10n.t('{0} of {1} page(s)', 0, total) });
            try {
              return await read(abort.signal, (page) => {
                if (page.status === 'queued' || page.status === 'reading') return;
                finished++;
                progress.report({ message: vscode.l10n.t('{0} of {1} page(s)', finished, total), increment: 100 / total });
              });
            } finally {
              abort.dispose();
            }
          }),
        ),
        reader,
      );
      if (!started) return undefined;
      const { session } = started;
      if (lastSession && !panels.has(lastSession.id)) lastSession.dispose();
      lastSession = session;
      const panel = showPanel(session);
      const result = await started.finished;
      panel.refresh();
      const openLabel = vscode.l10n.t('Open as Markdown');
      const saveLabel = vscode.l10n.t('Save next to the file');
      void vscode.window.showInformationMessage(summary(result), openLabel, saveLabel).then((choice) => {
        if (choice === openLabel) return openMarkdown(session);
        if (choice === saveLabel) return save(session);
        return undefined;
      });
      return result;
    } catch (error) {
      if (error instanceof DocumentError) {
        deps.logger.error(`Documents: ${error.message}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: {0}', error.message));
      } else {
        deps.logger.error(`Documents: reading ${fileName} failed: ${error instanceof Error ? error.message : String(error)}`);
        void showError(error, { log: deps.logChannel });
      }
      return undefined;
    }
  };

  store.add(vscode.commands.registerCommand(DocumentCommands.extract, (uri?: unknown, options?: unknown) => extract(uri, options)));
  // Now or as a batch (half price), both prices shown first; a completed job's pages shown as the run would.
  const ocrJobs = ocrBatchJobs(deps, cache, batchJobs, extractWith);
  store.add(ocrJobs.disposable);
  store.add(vscode.commands.registerCommand(DocumentCommands.extractBatch, async (uriArgument?: unknown) => {
    const uri = await documentUri(uriArgument);
    return uri ? ocrJobs.run(uri, {}) : undefined;
  }));
  store.add(vscode.commands.registerCommand(DocumentCommands.openMarkdown, async (argument?: unknown) => {
    const session = sessionOf(argument);
    if (!session) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: no document read yet. Run "Stratus: Extract Text from Document..." first.'));
      return undefined;
    }
    return openMarkdown(session);
  }));
  store.add(vscode.commands.registerCommand(DocumentCommands.saveMarkdown, async (argument?: unknown, replace?: unknown) => {
    const session = sessionOf(argument);
    if (!session) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: no document read yet. Run "Stratus: Extract Text from Document..." first.'));
      return undefined;
    }
    return save(session, typeof replace === 'boolean' ? replace : undefined);
  }));
  store.add(vscode.lm.registerTool(READ_DOCUMENT_TOOL, new ReadDocumentTool(deps, cache)));
  store.add(registerOcrChatCommand(deps, extract));
  store.add({
    dispose: () => {
      for (const panel of [...panels.values()]) panel.dispose();
      lastSession?.dispose();
    },
  });
  return {
    disposable: store,
    testApi: {
      panels: () => [...panels.values()],
      session: (id) => panels.get(id)?.session ?? (lastSession?.id === id ? lastSession : undefined),
      runBatch: (uri, options) => ocrJobs.run(uri, options),
      applyBatch: (jobId) => ocrJobs.apply(jobId),
    },
  };
}
