/** The document view's Markdown renderer (text through text nodes only, never HTML). */
import { h } from '../shared/dom';

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

/**
 * The Markdown of a page drawn as elements: headings, tables, lists and paragraphs (what OCR
 * answers contain), every piece of text as text. Anything else shows as written.
 */
export function renderMarkdown(markdown: string): HTMLElement {
  const root = h('div', { class: 'markdown' });
  const blocks = markdown.replace(/\r\n?/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0] ?? '');
    if (heading && lines.length === 1) {
      const level = Math.min(6, (heading[1]?.length ?? 1) + 2) as 3 | 4 | 5 | 6;
      root.append(h(`h${level}`, {}, heading[2] ?? ''));
    } else if (lines.every((l) => l.trim().startsWith('|'))) {
      const rows = lines.filter((l) => !/^\s*\|?\s*:?-{3,}/.test(l)).map(cells);
      const [head = [], ...body] = rows;
      root.append(h('table', {}, h('thead', {}, h('tr', {}, ...head.map((c) => h('th', {}, c)))), h('tbody', {}, ...body.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c)))))));
    } else if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
      root.append(h('ul', {}, ...lines.map((l) => h('li', {}, l.replace(/^\s*[-*]\s+/, '')))));
    } else if (/^_.*_$/.test(block.trim())) {
      root.append(h('p', { class: 'muted' }, block.trim().slice(1, -1)));
    } else {
      const p = h('p');
      lines.forEach((l, i) => {
        if (i > 0) p.append(h('br'));
        p.append(l);
      });
      root.append(p);
    }
  }
  return root;
}
