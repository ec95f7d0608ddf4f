import type { PageOutcome } from './types';

/** The line under a page heading that says how it was read. */
export function pageSourceNote(page: PageOutcome): string {
  if (page.status === 'failed') return `_Not read: ${page.reason ?? 'failed'}_`;
  if (page.status === 'cancelled' || page.status === 'queued' || page.status === 'reading') return '_Not read (cancelled)_';
  if (page.action === 'text') return '_Text layer_';
  if (page.action === 'empty') return '_Blank page_';
  return `_OCR${page.model ? ` (${page.model})` : ''}_`;
}

/**
 * The whole document as one Markdown text: a title, then each page under `## Page N` with a line
 * saying how it was read (text layer, OCR and which model, blank, or why it was not read).
 */
export function documentMarkdown(fileName: string, pages: readonly PageOutcome[]): string {
  const parts = [`# ${fileName.replace(/[\r\n]+/g, ' ')}`];
  for (const page of pages) {
    const body = page.status === 'done' ? (page.markdown ?? '').trim() : '';
    parts.push(`## Page ${page.number}`, pageSourceNote(page), ...(body ? [body] : []));
  }
  return `${parts.join('\n\n')}\n`;
}
