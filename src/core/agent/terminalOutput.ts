/**
 * Output of a command run in a terminal, as the model sees it: terminal escape sequences removed
 * (colours, cursor moves, window titles, shell-integration marks), carriage-return overwrites
 * resolved, and, when too long, its head and tail kept with a line saying how much was cut.
 */

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and two-character ESC sequences.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function plainTerminalText(raw: string): string {
  const text = raw.replace(ESCAPES, '').replace(/\r\n/g, '\n');
  // A bare CR returns to the start of the line: what follows overwrites it (progress bars).
  return text
    .split('\n')
    .map((line) => {
      const pieces = line.split('\r');
      return pieces.length === 1 ? line : pieces.filter((p) => p !== '').pop() ?? '';
    })
    .join('\n');
}

/** At most `maxChars` characters: the first and last parts, and how many characters were left out between. */
export function headAndTail(text: string, maxChars: number): { text: string; omitted: number } {
  if (text.length <= maxChars) return { text, omitted: 0 };
  const head = Math.floor(maxChars * 0.4);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n[… ${omitted} characters of output left out …]\n${text.slice(text.length - tail)}`, omitted };
}
