/**
 * Document OCR as a batch job (issue 42): the OCR pages of the same page plan as the interactive
 * run, one `/v1/chat/completions` line each (the same request `ocrReader` sends), each page image
 * made only when its line is written; once the batch completes, a `PageReader` over its answers
 * lets `readPages` fill the document view exactly as the interactive run does. A page without an
 * answer fails with why; none is marked done without its Markdown.
 */
import type { BatchRequest, BatchResult } from '../inference/batch/types';
import { estimateTextTokens } from '../inference/models/tokens';
import { estimateJobCost, type JobCostEstimate } from '../usage/batchCost';
import { DEFAULT_MAX_MODEL_LEN, imageTokenBudget, MAX_ANSWER_TOKENS, OCR_INSTRUCTION, ocrRequest } from './ocrRequest';
import { ocrAnswerMarkdown, PageFailure, type PageReader } from './run';
import type { DocumentSource } from './types';

export interface OcrModelRef {
  id: string;
  maxModelLen?: number | undefined;
}

/** The custom_id of a page's line. */
export function pageCustomId(page: number): string {
  return `page-${page}`;
}

/**
 * Both prices of OCR over `pages` pages, before any image is made: each page counted at the
 * whole image budget of the model's context and its longest answer (an upper bound).
 */
export function estimateOcrBatch(pages: number, model: OcrModelRef): JobCostEstimate {
  const context = model.maxModelLen ?? DEFAULT_MAX_MODEL_LEN;
  const image = imageTokenBudget(context);
  const input = image + estimateTextTokens(OCR_INSTRUCTION);
  const output = Math.max(0, Math.min(MAX_ANSWER_TOKENS, context - input));
  return estimateJobCost({ inputTokens: pages * input, outputTokens: pages * output });
}

/**
 * The OCR requests of `pages`, in order, each page's image made when its line is asked for (a
 * 300-page scan is never held whole). A page that cannot be sent (no image, a context too small)
 * is told to `unsent` with why, and has no line.
 */
export async function* ocrBatchRequests(source: DocumentSource, pages: readonly number[], model: OcrModelRef, unsent: (page: number, reason: string) => void): AsyncGenerator<BatchRequest> {
  for (const page of pages) {
    const image = await source.image(page);
    if (!image) {
      unsent(page, 'the page has no image to read');
      continue;
    }
    const planned = ocrRequest(model, image);
    if (!planned.ok) {
      unsent(page, planned.message);
      continue;
    }
    yield { customId: pageCustomId(page), body: { ...planned.request } };
  }
}

/** The page's Markdown from one result line, or why there is none. */
export function pageAnswer(result: BatchResult | undefined): { markdown: string } | { reason: string } {
  if (!result) return { reason: 'no result came back for this page' };
  if (!result.ok) return { reason: `the batch could not read this page: ${result.message}` };
  const choice = (result.body as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }> }).choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string') return { reason: 'the answer holds no text' };
  return { markdown: ocrAnswerMarkdown(content, typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined) };
}

/**
 * A page reader over a completed batch's answers (by page), for `readPages`: a page answered
 * gives its Markdown; a page that was not sent, failed or has no line fails with its reason.
 */
export function batchAnswerReader(answers: ReadonlyMap<number, BatchResult>, unsent: ReadonlyMap<number, string>): PageReader {
  return (_image, _signal, page) => {
    const notSent = unsent.get(page);
    if (notSent !== undefined) return Promise.reject(new PageFailure(`not sent in the batch: ${notSent}`));
    const answer = pageAnswer(answers.get(page));
    return 'markdown' in answer ? Promise.resolve(answer.markdown) : Promise.reject(new PageFailure(answer.reason));
  };
}
