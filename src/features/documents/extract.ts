import * as path from 'node:path';
import * as vscode from 'vscode';
import { cachedOutcomes, contentKey, type DocumentCache } from '../../core/documents/cache';
import { DocumentError } from '../../core/documents/errors';
import { DEFAULT_MAX_MODEL_LEN } from '../../core/documents/ocrRequest';
import { openDocument } from '../../core/documents/open';
import { formatPageRange, pagesOf, parsePageRange } from '../../core/documents/pageRange';
import { countActions, needsPageRange, planPages } from '../../core/documents/plan';
import { failureReason, ocrReader, type PageReader } from '../../core/documents/run';
import type { DocumentSource, ExtractMode, PageInfo, PageOutcome, PagePlan } from '../../core/documents/types';
import type { Deps } from '../deps';
import { loadDocumentBytes } from './load';
import { pickOcrModel, type OcrModel } from './models';
import { loadPdfJs } from './pdfjs';
import { DocumentSession } from './session';
import { readDocumentSettings, type DocumentSettings } from './settings';

/** What a script or test may pass to skip the prompts. */
export interface ExtractOptions {
  readonly mode?: ExtractMode;
  /** Pages to read (`1-3, 7` or numbers); past the page cap the user is asked otherwise. */
  readonly pages?: string | readonly number[];
  readonly model?: string;
}

export function parseExtractOptions(value: unknown): ExtractOptions {
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Record<string, unknown>;
  const pages = typeof v.pages === 'string' ? v.pages : Array.isArray(v.pages) && v.pages.every((p) => Number.isSafeInteger(p)) ? (v.pages as number[]) : undefined;
  return {
    ...(v.mode === 'auto' || v.mode === 'ocrAll' ? { mode: v.mode } : {}),
    ...(pages !== undefined ? { pages } : {}),
    ...(typeof v.model === 'string' && v.model.trim() ? { model: v.model.trim() } : {}),
  };
}

/** What the extract command resolves to (scripts and tests); undefined when nothing ran. */
export interface ExtractResult {
  readonly sessionId: string;
  readonly fileName: string;
  readonly pageCount: number;
  readonly markdown: string;
  readonly pages: ReadonlyArray<{ number: number; action: string; status: string; reason?: string | undefined; model?: string | undefined }>;
  readonly cancelled: boolean;
  readonly model: string | undefined;
}

let nextSession = 1;

/** Asks for the pages to read when the document is past the cap; undefined when the user cancels. */
async function askPageRange(fileName: string, pageCount: number, settings: DocumentSettings): Promise<number[] | undefined> {
  const answer = await vscode.window.showInputBox({
    title: vscode.l10n.t('{0} has {1} pages', fileName, pageCount),
    prompt: vscode.l10n.t('Which pages should be read? At most {0} at a time (setting stratus.documents.maxPages).', settings.maxPages),
    value: `1-${settings.maxPages}`,
    validateInput: (text) => {
      const parsed = parsePageRange(text, pageCount);
      if (!parsed.ok) return parsed.message;
      return parsed.count > settings.maxPages ? vscode.l10n.t('That is {0} pages; read at most {1} at a time.', parsed.count, settings.maxPages) : undefined;
    },
  });
  if (answer === undefined) return undefined;
  const parsed = parsePageRange(answer, pageCount);
  return parsed.ok && parsed.count <= settings.maxPages ? pagesOf(parsed) : undefined;
}

/** Which pages to read: the option, else all (or a prompt past the cap). */
async function choosePages(fileName: string, pageCount: number, option: ExtractOptions['pages'], settings: DocumentSettings): Promise<number[] | undefined> {
  if (option !== undefined) {
    const parsed = typeof option === 'string' ? parsePageRange(option, pageCount) : parsePageRange(option.join(','), pageCount);
    if (!parsed.ok) throw new DocumentError('unsupported', `${fileName}: ${parsed.message}`);
    // The same cap as the page-range box: a script or tool asking for `1-` of a huge document reads none of it.
    if (parsed.count > settings.maxPages) throw new DocumentError('unsupported', `${fileName}: that is ${parsed.count} pages; read at most ${settings.maxPages} at a time (setting stratus.documents.maxPages).`);
    return pagesOf(parsed);
  }
  if (!needsPageRange(pageCount, settings)) return Array.from({ length: pageCount }, (_, i) => i + 1);
  return askPageRange(fileName, pageCount, settings);
}

/** Text layer or OCR of every page: asked only for a PDF that has both text pages and images. */
async function chooseMode(infos: readonly PageInfo[], option: ExtractMode | undefined, settings: DocumentSettings, source: DocumentSource): Promise<ExtractMode | undefined> {
  if (option) return option;
  if (source.format !== 'pdf' || settings.mode === 'ocrAll') return settings.mode;
  const auto = countActions(planPages(infos, 'auto'));
  if (auto.text === 0) return 'auto';
  const withImages: PageInfo[] = [];
  for (const info of infos) withImages.push(info.textChars > 0 && !info.hasImage ? await source.info(info.number, true) : info);
  const all = countActions(planPages(withImages, 'ocrAll'));
  if (all.ocr === auto.ocr) return 'auto';
  const useText = { label: vscode.l10n.t('Use the text layer'), description: vscode.l10n.t('{0} page(s) free and instant, {1} by OCR', auto.text, auto.ocr), mode: 'auto' as const };
  const ocrAll = { label: vscode.l10n.t('OCR every page'), description: vscode.l10n.t('{0} page(s) by OCR (metered)', all.ocr), mode: 'ocrAll' as const };
  const picked = await vscode.window.showQuickPick([useText, ocrAll], { title: vscode.l10n.t('This PDF has a text layer') });
  return picked?.mode;
}

export interface Extraction {
  readonly session: DocumentSession;
  /** Resolves when the planned pages are read (or cancelled). */
  readonly finished: Promise<ExtractResult>;
}

/** A document opened and its reading planned: what `startExtraction` reads, and what a batch job sends. */
export interface PlannedExtraction {
  readonly fileName: string;
  readonly key: string;
  /** Opened with the OCR model's context (page images sized for it); the caller closes it. */
  readonly source: DocumentSource;
  /** The pages chosen, and how each is read. */
  readonly pages: number[];
  readonly mode: ExtractMode;
  /** Pages known from the cache (done), and the pages still to read. */
  readonly known: PageOutcome[];
  readonly todo: PagePlan[];
  readonly model: OcrModel | undefined;
  readonly concurrency: number;
}

/**
 * Opens a document and plans its reading: size cap, pdf.js loaded if it is a PDF, pages chosen
 * (range prompt past the cap), text layer or OCR per page, the OCR model picked, cached pages
 * reused. Undefined when the user stepped back. Throws DocumentError for a file that cannot be read.
 */
export async function planExtraction(deps: Deps, cache: DocumentCache, uri: vscode.Uri, options: ExtractOptions): Promise<PlannedExtraction | undefined> {
  const settings = readDocumentSettings();
  const fileName = path.basename(uri.path);
  const bytes = await loadDocumentBytes(uri, settings, false);
  const key = contentKey(bytes);
  let model: OcrModel | undefined;
  const configured = options.model ?? settings.model;
  const source = await openDocument(bytes, fileName, loadPdfJs, undefined);
  let keep = false;
  try {
    const pages = await choosePages(fileName, source.pageCount, options.pages, settings);
    if (!pages) return undefined;
    const infos: PageInfo[] = [];
    for (const n of pages) infos.push(await source.info(n, options.mode === 'ocrAll'));
    const mode = await chooseMode(infos, options.mode, settings, source);
    if (!mode) return undefined;
    const plan = planPages(mode === 'ocrAll' ? await Promise.all(infos.map((i) => (i.hasImage ? Promise.resolve(i) : source.info(i.number, true)))) : infos, mode);
    const cached = await cache.get(key);
    const known = cached ? cachedOutcomes(cached, pages).filter((p) => p.action === plan.find((q) => q.number === p.number)?.action && (p.action !== 'ocr' || mode !== 'ocrAll' || p.model !== undefined)) : [];
    const todo = plan.filter((p) => !known.some((k) => k.number === p.number));
    if (todo.some((p) => p.action === 'ocr')) model = await pickOcrModel(deps, configured, true);
    // Reopened with the model's context, so page images are sized for it.
    const resize = model?.maxModelLen !== undefined && model.maxModelLen !== DEFAULT_MAX_MODEL_LEN && source.format === 'pdf';
    const sized = resize ? await openDocument(bytes, fileName, loadPdfJs, model?.maxModelLen) : source;
    if (sized !== source) await source.close();
    keep = true;
    return { fileName, key, source: sized, pages, mode, known, todo, model, concurrency: settings.concurrency };
  } finally {
    if (!keep) await source.close().catch(() => undefined);
  }
}

/**
 * Opens a document and starts reading it (see `planExtraction`). `reader` reads the OCR pages
 * (default: the model, now; a batch job's answers once it completed).
 */
export async function startExtraction(
  deps: Deps,
  cache: DocumentCache,
  uri: vscode.Uri,
  options: ExtractOptions,
  run: (session: DocumentSession, read: (signal: AbortSignal, onPage: (page: PageOutcome) => void) => Promise<PageOutcome[]>) => Promise<PageOutcome[]>,
  reader?: (model: OcrModel) => PageReader,
): Promise<Extraction | undefined> {
  const planned = await planExtraction(deps, cache, uri, options);
  if (!planned) return undefined;
  const { fileName, key, source, known, todo, model } = planned;
  const ocr = model ? { read: reader ? reader(model) : ocrReader(deps.inference.client(), model), model: model.id } : undefined;
  const session = new DocumentSession(`document-${nextSession++}`, uri, fileName, key, source, cache, ocr, planned.concurrency);
  session.seed([...known, ...todo.map((p): PageOutcome => ({ number: p.number, action: p.action, status: 'queued' }))]);
  if (model?.fallback) void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: {0} is not an OCR model; results may be worse than with one.', model.id));
  const finished = run(session, (signal, onPage) => session.read(todo, signal, onPage)).then((outcomes): ExtractResult => {
    const all = session.pages();
    return {
      sessionId: session.id,
      fileName,
      pageCount: source.pageCount,
      markdown: session.markdown(),
      pages: all.map((p) => ({ number: p.number, action: p.action, status: p.status, reason: p.reason, model: p.model })),
      cancelled: outcomes.some((p) => p.status === 'cancelled'),
      model: model?.id,
    };
  });
  return { session, finished };
}

/** One line for the notification after reading. */
export function summary(result: ExtractResult): string {
  const done = result.pages.filter((p) => p.status === 'done');
  const text = done.filter((p) => p.action === 'text').length;
  const ocr = done.filter((p) => p.action === 'ocr').length;
  const failed = result.pages.filter((p) => p.status === 'failed').length;
  const notRead = result.pages.filter((p) => p.status === 'cancelled').length;
  const parts: string[] = [];
  if (text > 0) parts.push(vscode.l10n.t('{0} page(s) from the text layer', text));
  if (ocr > 0) parts.push(vscode.l10n.t('{0} page(s) by OCR', ocr));
  if (failed > 0) parts.push(vscode.l10n.t('{0} failed', failed));
  if (notRead > 0) parts.push(vscode.l10n.t('{0} not read (cancelled)', notRead));
  return vscode.l10n.t('Stratus: {0} (pages {1}): {2}.', result.fileName, formatPageRange(result.pages.map((p) => p.number)), parts.join(', '));
}

export { failureReason };
