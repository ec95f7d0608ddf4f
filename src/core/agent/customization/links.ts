/**
 * Markdown links in a prompt file's body that name files (`[the schema](../../api/schema.json)`):
 * those files are attached as context when the prompt runs. Links with a scheme (`https:`,
 * `mailto:`), anchors (`#part`) and links inside fenced code blocks are not files.
 */
export interface FileLink {
  /** The target as written, decoded, without `#fragment` or `?query`. */
  readonly target: string;
  /** The line in the body. */
  readonly line: number;
}

const LINK = /!?\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g;

export function fileLinks(body: string): FileLink[] {
  const out: FileLink[] = [];
  const seen = new Set<string>();
  let fence: string | undefined;
  body.split('\n').forEach((line, index) => {
    const opener = /^\s*(```+|~~~+)/.exec(line);
    if (opener) {
      const mark = opener[1] ?? '';
      if (!fence) fence = mark;
      else if (mark.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence) return;
    for (const m of line.matchAll(LINK)) {
      let raw = (m[1] ?? '').replace(/^<|>$/g, '');
      if (raw.startsWith('#') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) continue;
      raw = raw.replace(/[#?].*$/, '');
      let target: string;
      try {
        target = decodeURIComponent(raw);
      } catch {
        target = raw;
      }
      if (target === '' || seen.has(target)) continue;
      seen.add(target);
      out.push({ target, line: index });
    }
  });
  return out;
}
