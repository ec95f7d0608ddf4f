/**
 * What an OCR model answers, made into plain Markdown: reasoning and special tokens removed,
 * a fence around the whole answer unwrapped, grounding tags (DeepSeek-OCR's `<|ref|>`/`<|det|>`)
 * dropped, HTML tables (which OCR models like to write) turned into Markdown tables, blank lines
 * collapsed.
 */
export function cleanOcrText(raw: string): string {
  let text = raw.replace(/\r\n?/g, '\n');
  text = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  text = text.replace(/<\|ref\|>[\s\S]*?<\|\/ref\|>/g, '').replace(/<\|det\|>[\s\S]*?<\|\/det\|>/g, '');
  text = text.replace(/<\|[a-z_]+\|>|<｜[^｜]*｜>/g, '');
  const fenced = /^\s*```(?:markdown|md)?[ \t]*\n([\s\S]*?)\n```\s*$/.exec(text);
  if (fenced) text = fenced[1] ?? '';
  text = text.replace(/<table\b[^>]*>[\s\S]*?<\/table>/gi, (table) => htmlTableToMarkdown(table) ?? table);
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function cellText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** A simple HTML table (rows of cells; spans ignored) as a Markdown table, the first row its header. */
export function htmlTableToMarkdown(html: string): string | undefined {
  const rows = [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map((row) => [...(row[1] ?? '').matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/gi)].map((cell) => cellText(cell[1] ?? '')));
  const kept = rows.filter((r) => r.length > 0);
  const columns = Math.max(0, ...kept.map((r) => r.length));
  if (kept.length === 0 || columns === 0) return undefined;
  const line = (cells: string[]): string => `| ${Array.from({ length: columns }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [head = [], ...body] = kept;
  return `\n${[line(head), `|${' --- |'.repeat(columns)}`, ...body.map(line)].join('\n')}\n`;
}
