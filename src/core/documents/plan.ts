import { DocumentError, formatMegabytes } from './errors';
import type { ExtractMode, PageInfo, PagePlan } from './types';

/** A text layer with fewer visible characters than this is a scan's stray marks, not text. */
export const MIN_TEXT_CHARS = 16;

export interface DocumentCaps {
  /** Files larger than this are refused before they are read. */
  readonly maxBytes: number;
  /** Past this many pages, the user picks a page range first. */
  readonly maxPages: number;
}

/** Refuses a file over the size cap with a sentence naming the file and the setting. */
export function checkSize(fileName: string, size: number, caps: DocumentCaps): void {
  if (size > caps.maxBytes) {
    throw new DocumentError('too_large', `${fileName} is ${formatMegabytes(size)}; documents are limited to ${formatMegabytes(caps.maxBytes)} (setting stratus.documents.maxFileSizeMB).`);
  }
}

/** Whether the user must pick a page range before anything is read. */
export function needsPageRange(pageCount: number, caps: DocumentCaps): boolean {
  return pageCount > caps.maxPages;
}

/**
 * How each requested page is read: its text layer when it has one (free, instant) unless the user
 * asked for OCR of every page; OCR when it has an image; otherwise its (possibly empty) text.
 */
export function planPages(pages: readonly PageInfo[], mode: ExtractMode): PagePlan[] {
  return pages.map((page) => {
    const hasText = page.textChars >= MIN_TEXT_CHARS;
    if (hasText && (mode === 'auto' || !page.hasImage)) return { number: page.number, action: 'text' };
    if (page.hasImage) return { number: page.number, action: 'ocr' };
    return { number: page.number, action: page.textChars > 0 ? 'text' : 'empty', ...(page.note ? { note: page.note } : {}) };
  });
}

export function countActions(plan: readonly PagePlan[]): { text: number; ocr: number; empty: number } {
  const counts = { text: 0, ocr: 0, empty: 0 };
  for (const page of plan) counts[page.action] += 1;
  return counts;
}
