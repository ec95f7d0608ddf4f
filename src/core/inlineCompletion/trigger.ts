import { lastLine } from './text';

/** Inter-key intervals remembered to learn the user's typing rhythm. */
export const RHYTHM_SAMPLES = 24;
/** Fewer intervals than this: the rhythm is not known yet and the base debounce applies. */
export const RHYTHM_MIN_SAMPLES = 6;
/** A gap longer than this is a pause, not part of the typing rhythm. */
export const PAUSE_GAP_MS = 1_000;
/** Mid-line, wait this much longer than the user's p90 inter-key interval... */
export const RHYTHM_FACTOR = 1.25;
/** ...but never longer than this (a slow typist still gets ghost text). */
export const MAX_ADAPTIVE_MS = 400;

/**
 * Where people stop to think, so a request pays off at once: the start of a line (after Enter and
 * its auto-indent), right after an opener (`(`, `[`, `{`), and after the space that follows an
 * assignment, a colon, a comma or an arrow (`x = `, `key: `, `f(a, `, `=> `), or after `return `.
 * Mid-word, the next key is likely: wait for a pause.
 */
const PAUSE_POINT = /(?:^[ \t]*|[([{]|(?:[=:,]|=>|\breturn)[ \t])$/;

/** Why a delay was chosen (the bench and tests read it). */
export type TriggerKind = 'pausePoint' | 'rhythm' | 'base';

export interface TriggerDecision {
  kind: TriggerKind;
  delayMs: number;
}

/**
 * The trigger of inline completion, a pure state machine (time is passed in). A fixed debounce
 * cannot both skip the keys of a word and answer a pause without delay, so it splits the two:
 * at a pause point (see PAUSE_POINT) the request leaves at once; elsewhere it waits a little
 * longer than the user's own p90 inter-key interval (learned from the last RHYTHM_SAMPLES keys,
 * at least `baseMs`, at most MAX_ADAPTIVE_MS), which lets a word go by and fires when the user
 * stops. Under the tier back-off (`throttled`) there is no immediate trigger: every position waits
 * at least the back-off's debounce.
 */
export class TriggerPolicy {
  private readonly intervals: number[] = [];
  private lastKeyAt: number | undefined;

  /** A keystroke at `now` (each automatic provide call is one). */
  observeKeystroke(now: number): void {
    if (this.lastKeyAt !== undefined) {
      const gap = now - this.lastKeyAt;
      if (gap > 0 && gap < PAUSE_GAP_MS) {
        this.intervals.push(gap);
        if (this.intervals.length > RHYTHM_SAMPLES) this.intervals.shift();
      }
    }
    this.lastKeyAt = now;
  }

  /** The p90 of the recent inter-key intervals, or undefined while too few are known. */
  rhythmP90(): number | undefined {
    if (this.intervals.length < RHYTHM_MIN_SAMPLES) return undefined;
    const sorted = [...this.intervals].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)];
  }

  /** How long to wait before requesting at the end of `prefix` (`baseMs`: the setting, or the back-off's). */
  decide(prefix: string, baseMs: number, throttled: boolean): TriggerDecision {
    if (!throttled && isPausePoint(prefix)) return { kind: 'pausePoint', delayMs: 0 };
    const p90 = this.rhythmP90();
    if (p90 === undefined) return { kind: 'base', delayMs: baseMs };
    const adaptive = Math.min(MAX_ADAPTIVE_MS, Math.round(p90 * RHYTHM_FACTOR));
    return adaptive > baseMs ? { kind: 'rhythm', delayMs: adaptive } : { kind: 'base', delayMs: baseMs };
  }
}

/** Whether the text before the cursor ends where people usually pause (see PAUSE_POINT). */
export function isPausePoint(prefix: string): boolean {
  return PAUSE_POINT.test(lastLine(prefix));
}
