/**
 * Markdown links in a prompt file's body that name files (`[the schema](../../api/schema.json)`):
 * those files are attached as context when the prompt runs. Links with a scheme (`https:`,
 * `mailto:`), anchors (`#part`) and links inside fenced code blocks are not files.
 */
import { isSpace, nextIndexes, stripFragment } from './textScan';

export interface FileLink {
  /** The target as written, decoded, without `#fragment` or `?query`. */
  readonly target: string;
  /** The line in the body. */
  readonly line: number;
}

/**
 * The targets of the links on one line, left to right: what
 * `/!?\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g` captured, in linear time (the
 * next `]`, `>` and `"` and the end of each run are looked up, never searched for again from each `[`).
 */
function linkTargets(line: string): string[] {
  const out: string[] = [];
  if (!line.includes('](')) return out;
  const next = { ']': nextIndexes(line, ']'), '>': nextIndexes(line, '>'), '"': nextIndexes(line, '"') };
  const spaceEnd = runEnds(line, (c) => isSpace(c));
  const bareEnd = runEnds(line, (c) => c !== ')' && !isSpace(c));
  // After a target: an optional `"title"` after spaces, spaces, then `)`; the index after it, or -1.
  const closing = (t: number): number => {
    const spaces = spaceEnd[t] ?? t;
    if (spaces > t && line[spaces] === '"') {
      const quote = next['"'][spaces + 1] ?? -1;
      const after = quote === -1 ? -1 : (spaceEnd[quote + 1] ?? quote + 1);
      if (after !== -1 && line[after] === ')') return after + 1;
    }
    return line[spaces] === ')' ? spaces + 1 : -1;
  };
  for (let at = line.indexOf('['); at !== -1; ) {
    const bracket = next[']'][at + 1] ?? -1;
    if (bracket === -1) break;
    let end = -1;
    if (line[bracket + 1] === '(') {
      const s = spaceEnd[bracket + 2] ?? bracket + 2;
      const angle = line[s] === '<' ? (next['>'][s + 1] ?? -1) : -1;
      if (angle > s + 1 && (end = closing(angle + 1)) !== -1) out.push(line.slice(s, angle + 1));
      else {
        const bare = bareEnd[s] ?? s;
        if (bare > s && (end = closing(bare)) !== -1) out.push(line.slice(s, bare));
      }
    }
    at = line.indexOf('[', end === -1 ? at + 1 : end);
  }
  return out;
}

/** For each index, the end of the run of characters `inRun` starting there. */
function runEnds(s: string, inRun: (c: string) => boolean): Int32Array {
  const out = new Int32Array(s.length + 1);
  out[s.length] = s.length;
  for (let k = s.length - 1; k >= 0; k--) out[k] = inRun(s[k] ?? '') ? (out[k + 1] ?? k + 1) : k;
  return out;
}

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
    for (const written of linkTargets(line)) {
      let raw = written.replace(/^<|>$/g, '');
      if (raw.startsWith('#') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) continue;
      raw = stripFragment(raw);
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
