import * as path from 'node:path';
import * as vscode from 'vscode';
import { cachedOutcomes, contentKey, type DocumentCache } from '../../core/documents/cache';
import { documentMarkdown } from '../../core/documents/markdown';
import { openDocument } from '../../core/documents/open';
import { planPages } from '../../core/documents/plan';
import { ocrReader, readPages } from '../../core/documents/run';
import type { PageOutcome } from '../../core/documents/types';
import { toAbortSignal } from '../../platform/cancellation';
import type { Deps } from '../deps';
import { resolveWorkspacePath } from '../../platform/toolWorkspace';
import { loadDocumentBytes } from './load';
import { pickOcrModel } from './models';
import { loadPdfJs } from './pdfjs';
import { readDocumentSettings } from './settings';

export interface ReadDocumentInput {
  path: string;
  startPage?: number;
  endPage?: number;
}

/** Pages one call returns at most: a model asks for more by range. */
export const MAX_TOOL_PAGES = 10;
/** Characters of Markdown one call returns at most. */
export const MAX_TOOL_CHARS = 60_000;

/**
 * `stratus_readDocument`: a page range of a workspace PDF or image as Markdown. Read-only and
 * confined to the workspace (the confined reader); pages come from the cache keyed by the file's
 * content hash, and pages not read yet are read now (text layer, or OCR for scans) and cached.
 */
export class ReadDocumentTool implements vscode.LanguageModelTool<ReadDocumentInput> {
  constructor(
    private readonly deps: Deps,
    private readonly cache: DocumentCache,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadDocumentInput>): vscode.PreparedToolInvocation {
    const { startPage, endPage } = options.input;
    return { invocationMessage: startPage ? vscode.l10n.t('Reading {0} (pages {1}–{2})', options.input.path, startPage, endPage ?? startPage) : vscode.l10n.t('Reading {0}', options.input.path) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadDocumentInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await this.read(options.input, token))]);
  }

  async read(input: ReadDocumentInput, token: vscode.CancellationToken): Promise<string> {
    if (typeof input.path !== 'string' || input.path.trim() === '') throw new Error('`path` is required: the document, relative to the workspace folder.');
    const settings = readDocumentSettings();
    // The tools' one resolver: confined to the workspace folders, symbolic links resolved.
    const { uri } = await resolveWorkspacePath(input.path.trim());
    const fileName = path.basename(uri.path);
    const bytes = await loadDocumentBytes(uri, settings, true);
    const key = contentKey(bytes);
    const cached = await this.cache.get(key);
    const first = Math.max(1, Math.floor(input.startPage ?? 1));
    let pageCount = cached?.pageCount;
    let outcomes: PageOutcome[] = [];
    const range = (count: number): number[] => {
      if (first > count) throw new Error(`${input.path} has ${count} page(s); startPage ${first} is past the end.`);
      const last = Math.min(count, Math.floor(input.endPage ?? count), first + MAX_TOOL_PAGES - 1);
      if (last < first) throw new Error(`endPage (${input.endPage}) is before startPage (${first}).`);
      return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    };
    let pages = pageCount !== undefined ? range(pageCount) : [];
    outcomes = cached ? cachedOutcomes(cached, pages) : [];
    if (pageCount === undefined || outcomes.length < pages.length) {
      const source = await openDocument(bytes, fileName, loadPdfJs, undefined);
      const abort = toAbortSignal(token);
      try {
        pageCount = source.pageCount;
        pages = range(pageCount);
        const known = cached ? cachedOutcomes(cached, pages) : [];
        const missing = pages.filter((n) => !known.some((k) => k.number === n));
        const infos = [];
        for (const n of missing) infos.push(await source.info(n));
        const plan = planPages(infos, 'auto');
        const model = plan.some((p) => p.action === 'ocr') ? await pickOcrModel(this.deps, settings.model, false, abort.signal) : undefined;
        const read = model ? ocrReader(this.deps.inference.client(), model) : () => Promise.reject(new Error('no OCR model is available'));
        const fresh = await readPages({ source, plan, read, model: model?.id ?? '', concurrency: settings.concurrency, signal: abort.signal });
        await this.cache.put(key, fileName, pageCount, fresh);
        outcomes = [...known, ...fresh].sort((a, b) => a.number - b.number);
      } finally {
        abort.dispose();
        await source.close().catch(() => undefined);
      }
    }
    let text = documentMarkdown(fileName, outcomes);
    const notes: string[] = [];
    const last = pages[pages.length - 1] ?? first;
    if (text.length > MAX_TOOL_CHARS) {
      text = text.slice(0, MAX_TOOL_CHARS);
      notes.push(`[Cut at ${MAX_TOOL_CHARS} characters; ask for fewer pages.]`);
    }
    if (last < pageCount) notes.push(`[Pages ${first}–${last} of ${pageCount}; read from startPage ${last + 1} for more.]`);
    return `Document: ${input.path} (${pageCount} page(s); pages ${first}–${last})\n\n${text}${notes.length ? `\n${notes.join('\n')}` : ''}`;
  }
}
