/**
 * Page ranges as people type them: `1-5, 8, 10-` (an open end runs to the last page). Pages are
 * 1-based, returned sorted without repeats; anything else is a sentence saying what is wrong.
 */
export type RangeParse = { ok: true; pages: number[] } | { ok: false; message: string };

export function parsePageRange(text: string, pageCount: number): RangeParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Type pages such as 1-5, 8, 10-.' };
  const pages = new Set<number>();
  for (const raw of trimmed.split(',')) {
    const part = raw.trim();
    const match = /^(\d+)?\s*(-)?\s*(\d+)?$/.exec(part);
    if (part === '' || !match || (match[1] === undefined && match[3] === undefined)) {
      return { ok: false, message: `"${part}" is not a page or a range: type pages such as 1-5, 8, 10-.` };
    }
    const first = match[1] !== undefined ? Number(match[1]) : 1;
    const last = match[2] ? (match[3] !== undefined ? Number(match[3]) : pageCount) : first;
    if (first < 1 || last < 1) return { ok: false, message: 'Pages start at 1.' };
    if (first > pageCount || last > pageCount) return { ok: false, message: `The document has ${pageCount} page(s); "${part}" goes past the last one.` };
    if (first > last) return { ok: false, message: `"${part}" runs backwards: write the lower page first.` };
    for (let p = first; p <= last; p++) pages.add(p);
  }
  return { ok: true, pages: [...pages].sort((a, b) => a - b) };
}

/** The pages as a short range text (`1-3, 7`), for titles and messages. */
export function formatPageRange(pages: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === (pages[j] ?? 0) + 1) j++;
    parts.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
