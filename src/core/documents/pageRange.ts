/**
 * Page ranges as people type them: `1-5, 8, 10-` (an open end runs to the last page). Pages are
 * 1-based. Kept as sorted, merged [from, to] intervals: `1-` on a five-million-page document is
 * one interval, never five million numbers (the page-range box parses on each keystroke).
 */
export type PageInterval = readonly [from: number, to: number];

export interface PageSelection {
  /** Sorted, non-overlapping, non-adjacent intervals (inclusive). */
  readonly ranges: readonly PageInterval[];
  /** How many pages the ranges hold. */
  readonly count: number;
}

export type RangeParse = ({ ok: true } & PageSelection) | { ok: false; message: string };

export function parsePageRange(text: string, pageCount: number): RangeParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Type pages such as 1-5, 8, 10-.' };
  const intervals: PageInterval[] = [];
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
    intervals.push([first, last]);
  }
  return { ok: true, ...mergeIntervals(intervals) };
}

/** Sorts and merges overlapping or touching intervals; counts their pages. */
export function mergeIntervals(intervals: readonly PageInterval[]): PageSelection {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const ranges: Array<[number, number]> = [];
  for (const [from, to] of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  return { ranges, count: ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0) };
}

/** The first `limit` pages of the selection, in order (never more numbers than `limit`). */
export function pagesOf(selection: PageSelection, limit = selection.count): number[] {
  const pages: number[] = [];
  for (const [from, to] of selection.ranges) {
    for (let p = from; p <= to && pages.length < limit; p++) pages.push(p);
    if (pages.length >= limit) break;
  }
  return pages;
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
