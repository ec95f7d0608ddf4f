/** One run of a PDF text layer, as pdf.js gives it (getTextContent items). */
export interface TextRun {
  readonly str: string;
  readonly hasEOL?: boolean | undefined;
  /** [a, b, c, d, x, y]: the run's position; y grows upwards. */
  readonly transform?: readonly number[] | undefined;
  readonly height?: number | undefined;
}

/**
 * A page's text layer as Markdown paragraphs: runs on one baseline are one line, a new baseline
 * (or an explicit end of line) starts another, and a gap wider than about a line and a half
 * starts a new paragraph. Text is kept as written: the layer is what the author typed.
 */
export function textLayerMarkdown(runs: readonly TextRun[]): string {
  const lines: Array<{ text: string; y: number | undefined; height: number }> = [];
  let current = '';
  let y: number | undefined;
  let height = 0;
  const flush = (): void => {
    if (current.trim() !== '') lines.push({ text: current.replace(/\s+/g, ' ').trim(), y, height });
    current = '';
  };
  for (const run of runs) {
    const runY = run.transform?.[5];
    const runHeight = run.height ?? Math.abs(run.transform?.[3] ?? 0);
    if (runY !== undefined && y !== undefined && current !== '' && Math.abs(runY - y) > Math.max(1, runHeight / 2)) flush();
    if (current === '') {
      y = runY;
      height = runHeight;
    }
    current += run.str;
    if (run.hasEOL) flush();
  }
  flush();
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const previous = lines[i - 1];
    if (!line) continue;
    const gap = previous?.y !== undefined && line.y !== undefined ? previous.y - line.y : 0;
    if (previous && gap > Math.max(previous.height, line.height, 1) * 1.8) out.push('');
    out.push(line.text);
  }
  return out.join('\n');
}

/** Visible characters of a text layer (whitespace excluded): decides whether a page has one. */
export function visibleChars(runs: readonly TextRun[]): number {
  let n = 0;
  for (const run of runs) n += run.str.replace(/\s+/g, '').length;
  return n;
}
