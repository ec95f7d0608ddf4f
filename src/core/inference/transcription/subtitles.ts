/**
 * SubRip (SRT) and WebVTT files generated client-side from the transcription's segments (the
 * service answers JSON only). Both use `hh:mm:ss` + milliseconds (SRT with a comma, WebVTT with a
 * dot), hours with at least two digits, one cue per non-empty segment, lines wrapped at word
 * boundaries to `maxLineLength` characters.
 */

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

export interface SubtitleOptions {
  /** Longest line of a cue before wrapping (a word longer than this stays whole). Default 42. */
  maxLineLength?: number;
}

export const DEFAULT_MAX_LINE_LENGTH = 42;

function wholeMs(seconds: number): number {
  // Capped so a time is always digits (3.6e24 s would print as `1e+21` hours).
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(Number.MAX_SAFE_INTEGER, Math.round(seconds * 1000)) : 0;
}

/** `hh:mm:ss<separator>mmm`, rounding to the millisecond (59.9996 s is 00:01:00.000). */
export function formatTimestamp(seconds: number, separator: ',' | '.'): string {
  const total = wholeMs(seconds);
  const ms = total % 1000;
  const s = Math.floor(total / 1000) % 60;
  const m = Math.floor(total / 60_000) % 60;
  const h = Math.floor(total / 3_600_000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}${separator}${String(ms).padStart(3, '0')}`;
}

/** Words greedily packed into lines of at most `max` characters. */
export function wrapLines(text: string, max: number = DEFAULT_MAX_LINE_LENGTH): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= max) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

interface Cue {
  index: number;
  startMs: number;
  endMs: number;
  lines: string[];
}

/** Non-empty segments in time order, numbered from 1, with end never before start. */
function cues(segments: readonly TimedText[], max: number): Cue[] {
  const out: Cue[] = [];
  const sorted = segments
    .map((segment, position) => ({ segment, position }))
    .sort((a, b) => wholeMs(a.segment.start) - wholeMs(b.segment.start) || a.position - b.position);
  for (const { segment } of sorted) {
    const lines = wrapLines(segment.text, max);
    if (lines.length === 0) continue;
    const startMs = wholeMs(segment.start);
    out.push({ index: out.length + 1, startMs, endMs: Math.max(startMs, wholeMs(segment.end)), lines });
  }
  return out;
}

export function toSrt(segments: readonly TimedText[], options: SubtitleOptions = {}): string {
  return cues(segments, options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH)
    .map((c) => `${c.index}\n${formatTimestamp(c.startMs / 1000, ',')} --> ${formatTimestamp(c.endMs / 1000, ',')}\n${c.lines.join('\n')}\n`)
    .join('\n');
}

/** WebVTT cue text: `&` and `<` escaped, and no `-->` (it would end the cue's timing line). */
function vttText(line: string): string {
  return line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function toWebVtt(segments: readonly TimedText[], options: SubtitleOptions = {}): string {
  const body = cues(segments, options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH)
    .map((c) => `${c.index}\n${formatTimestamp(c.startMs / 1000, '.')} --> ${formatTimestamp(c.endMs / 1000, '.')}\n${c.lines.map(vttText).join('\n')}\n`)
    .join('\n');
  return body === '' ? 'WEBVTT\n' : `WEBVTT\n\n${body}`;
}
