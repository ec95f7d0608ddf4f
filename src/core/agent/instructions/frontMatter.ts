/**
 * Minimal YAML front matter of an instructions file: a first line `---`, then `key: value` lines up
 * to the next `---`. Only scalars are read (plain, "double" or 'single' quoted) and a flow list of
 * them (`["a", "b"]`); anything else (nesting, anchors, tags, multi-line values) is ignored, never
 * evaluated. A file without a closed front matter has no attributes and its whole text is the body.
 */

export interface FrontMatter {
  readonly attributes: ReadonlyMap<string, string | readonly string[]>;
  readonly body: string;
}

const MAX_FRONT_MATTER_LINES = 50;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]{0,63})\s*:\s*(.*)$/;

function unquote(raw: string): string | undefined {
  const value = raw.trim();
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
    return value.slice(1, -1);
  }
  if (/^["'[{&*!|>]/.test(value)) return undefined; // quoted but unclosed, or YAML we do not read
  return value.replace(/\s+#.*$/, ''); // a plain scalar's trailing comment
}

function parseValue(raw: string): string | string[] | undefined {
  const value = raw.trim();
  if (value.startsWith('[') && value.endsWith(']')) {
    const items = value.slice(1, -1).split(',').map(unquote);
    return items.every((i): i is string => i !== undefined) ? items.map((i) => i.trim()).filter((i) => i !== '') : undefined;
  }
  return unquote(value);
}

export function parseFrontMatter(text: string): FrontMatter {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  const none: FrontMatter = { attributes: new Map(), body: source };
  if (lines[0]?.trim() !== '---') return none;
  const attributes = new Map<string, string | string[]>();
  for (let i = 1; i < lines.length && i <= MAX_FRONT_MATTER_LINES; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '---') return { attributes, body: lines.slice(i + 1).join('\n') };
    const match = KEY_LINE.exec(line);
    if (!match) continue;
    const [, key = '', raw = ''] = match;
    const value = parseValue(raw);
    if (value !== undefined && !attributes.has(key)) attributes.set(key, value);
  }
  return none;
}
