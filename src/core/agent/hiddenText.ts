/**
 * Characters that change what a reader sees without showing themselves: bidirectional controls
 * (which can reorder code on screen, "Trojan Source"), zero-width characters and other invisible
 * format characters. An edit holding any is shown with a warning naming them.
 */
const HIDDEN_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180e, 0x180e],
  [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x2064], [0x2066, 0x206f], [0x3164, 0x3164],
  [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff9, 0xfffb], [0xe0000, 0xe0fff],
];

function isHidden(code: number): boolean {
  return HIDDEN_RANGES.some(([from, to]) => code >= from && code <= to);
}

/** The distinct hidden characters of `text`, as `U+XXXX` codes, in order of first appearance. */
export function hiddenCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (isHidden(code)) found.add(`U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
  }
  return [...found];
}
