/** `text` cut at the given offsets (taken modulo its length + 1, sorted, repeats dropped): the deltas of one split. */
export function cut(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const p of at) {
    parts.push(text.slice(from, p));
    from = p;
  }
  parts.push(text.slice(from));
  return parts;
}
