import { CancelledError } from '../errors';
import type { InferenceClient } from '../inference/api';
import { presentError } from '../presentError';
import { cleanOcrText } from './cleanup';
import { ocrRequest } from './ocrRequest';
import type { DocumentSource, PageImage, PageOutcome, PagePlan } from './types';

/** Reads one page image (page `page`, 1-based) with the OCR model; resolves to the page's Markdown. */
export type PageReader = (image: PageImage, signal: AbortSignal, page: number) => Promise<string>;

/** The model's answer for a page as its Markdown: cleaned, and marked when the answer limit cut it. */
export function ocrAnswerMarkdown(text: string, finishReason: string | undefined): string {
  const markdown = cleanOcrText(text);
  return finishReason === 'length' ? `${markdown}\n\n_(cut short: the page's Markdown reached the model's answer limit)_` : markdown;
}

/** A page that cannot be read, its message already the sentence to show (a batch without its answer...). */
export class PageFailure extends Error {
  override readonly name = 'PageFailure';
}

/** Why a page failed, one sentence for the view and the Markdown (no secret: core errors are redacted). */
export function failureReason(error: unknown): string {
  if (error instanceof Error && (error.name === 'DocumentError' || error instanceof PageFailure)) return error.message;
  return presentError(error).message;
}

/**
 * The OCR reader over the (metered) inference client: one non-streamed chat request per page,
 * metered as kind `ocr` (so counted by the usage store and the tier guard), the answer cleaned.
 */
export function ocrReader(client: InferenceClient, model: { id: string; maxModelLen?: number | undefined }): PageReader {
  return async (image, signal) => {
    const planned = ocrRequest(model, image);
    if (!planned.ok) throw new Error(planned.message);
    const result = await client.chat(planned.request, { signal, purpose: 'ocr' });
    return ocrAnswerMarkdown(result.text, result.finishReason);
  };
}

export interface ReadPagesOptions {
  readonly source: DocumentSource;
  readonly plan: readonly PagePlan[];
  readonly read: PageReader;
  /** The model named on OCR pages. */
  readonly model: string;
  /** OCR requests in flight at once (at least 1). */
  readonly concurrency: number;
  readonly signal?: AbortSignal | undefined;
  /** Told each time a page changes state (the view fills in page by page). */
  readonly onChange?: ((page: PageOutcome) => void) | undefined;
}

/**
 * Reads the planned pages: text-layer pages at once (free), OCR pages through a pool of
 * `concurrency` requests. A page that fails keeps its reason and the others go on. Cancelling
 * aborts the requests in flight; pages already read stay done, the rest are `cancelled`.
 */
export async function readPages(options: ReadPagesOptions): Promise<PageOutcome[]> {
  const { source, plan, read, onChange } = options;
  const outcomes: PageOutcome[] = plan.map((p) => ({ number: p.number, action: p.action, status: 'queued' }));
  const notes = new Map(plan.filter((p) => p.note).map((p) => [p.number, p.note as string]));
  const change = (page: PageOutcome, patch: Partial<PageOutcome>): void => {
    Object.assign(page, patch);
    try {
      onChange?.({ ...page });
    } catch {
      // A view that fails to update must not stop the reading.
    }
  };
  for (const page of outcomes) onChange?.({ ...page });
  const abort = new AbortController();
  const onAbort = (): void => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const readOne = async (page: PageOutcome): Promise<void> => {
    if (abort.signal.aborted) return change(page, { status: 'cancelled' });
    change(page, { status: 'reading' });
    try {
      if (page.action === 'empty') {
        const note = notes.get(page.number);
        return change(page, note ? { status: 'done', markdown: `_(${note})_`, reason: note } : { status: 'done', markdown: '' });
      }
      if (page.action === 'text') return change(page, { status: 'done', markdown: await source.text(page.number) });
      const image = await source.image(page.number);
      if (!image) return change(page, { status: 'failed', reason: 'the page has no image to read' });
      const markdown = await read(image, abort.signal, page.number);
      change(page, { status: 'done', markdown, model: options.model });
    } catch (error) {
      if (abort.signal.aborted || error instanceof CancelledError) change(page, { status: 'cancelled' });
      else change(page, { status: 'failed', reason: failureReason(error) });
    }
  };

  try {
    for (const page of outcomes) if (page.action !== 'ocr') await readOne(page);
    const queue = outcomes.filter((p) => p.action === 'ocr');
    const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, queue.length)) }, async () => {
      for (let page = queue.shift(); page; page = queue.shift()) await readOne(page);
    });
    await Promise.all(workers);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  return outcomes;
}
