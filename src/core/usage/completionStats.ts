import { CONTRACT_EUR_PER_UNIT, totalCost, type EurPerUnit } from './cost';
import { emptyCounters, type Counters } from './ledger';
import type { UsageEvent } from './events';
import { MAX_EVENT_COUNT } from './validate';

/**
 * Acceptance statistics of inline (ghost-text) completion, pure. The VS Code provider reports
 * through a `CompletionTelemetrySink`; `CompletionStats` turns each call into an `inlineStat`
 * usage event for the meter (which persists it in the usage store, bucketed by minute, hour and
 * day like every other usage). The tokens and cost of the requests themselves are metered
 * separately: pass `purpose: 'inline'` to `complete` / `completeStream` on the metered client
 * and the request is recorded as kind `completion`.
 */
export interface CompletionTelemetrySink {
  /** A suggestion was shown as ghost text (`lines`: lines it spans, 1 for a single line). */
  shown(n: { chars: number; lines: number }): void;
  /** A suggestion was accepted (whole, or the part accepted word by word). */
  accepted(n: { chars: number; lines: number }): void;
  /** The provider asked for a suggestion. */
  requested(): void;
}

export interface CompletionStatsOptions {
  /** Where the events go: the usage meter's `record` (or `listener`). */
  record: (event: UsageEvent) => void;
  /** The completion model, for the per-model buckets ('' when unknown). */
  model?: () => string;
  now?: () => number;
}

/** Keeps a caller's count inside what the store accepts: a whole number in [0, MAX_EVENT_COUNT]. */
function clampCount(n: unknown): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return 0;
  return Math.min(Math.floor(n), MAX_EVENT_COUNT);
}

export class CompletionStats implements CompletionTelemetrySink {
  private readonly now: () => number;

  constructor(private readonly options: CompletionStatsOptions) {
    this.now = options.now ?? Date.now;
  }

  requested(): void {
    this.emit('requested', 0, 0);
  }

  shown(n: { chars: number; lines: number }): void {
    this.emit('shown', n.chars, n.lines);
  }

  accepted(n: { chars: number; lines: number }): void {
    this.emit('accepted', n.chars, n.lines);
  }

  private emit(stat: 'requested' | 'shown' | 'accepted', chars: number, lines: number): void {
    let model = '';
    try {
      model = this.options.model?.() ?? '';
    } catch {
      // Statistics never fail the editor.
    }
    try {
      this.options.record({ kind: 'inlineStat', at: this.now(), stat, model, chars: clampCount(chars), lines: clampCount(lines) });
    } catch {
      // The meter must never break typing.
    }
  }
}

/** The characters and lines of an inserted text, as the sink expects them. */
export function measureText(text: string): { chars: number; lines: number } {
  if (text === '') return { chars: 0, lines: 0 };
  return { chars: text.length, lines: text.split('\n').length };
}

/** Inline completion figures of one window, for the Usage view and `/usage`. */
export interface CompletionFigures {
  /** The provider asked for a suggestion. */
  requests: number;
  /** Requests sent to the server (metered as kind `completion`). */
  sent: number;
  shown: number;
  accepted: number;
  acceptedChars: number;
  acceptedLines: number;
  /** accepted / shown; undefined when nothing was shown. */
  acceptanceRate: number | undefined;
  /** Prompt + generated tokens of the requests sent. */
  tokens: number;
  /** tokens / accepted characters; undefined when nothing was accepted. */
  tokensPerAcceptedChar: number | undefined;
  /** EUR of the requests sent, at the rates of the tier table. */
  costEur: number;
  /** costEur / accepted lines; undefined when no line was accepted. */
  eurPerAcceptedLine: number | undefined;
  /** Next edit suggestions (kind `nextEdit`): requests sent, their prompt + generated tokens and EUR. */
  nextEdit: { sent: number; tokens: number; costEur: number };
}

/**
 * EUR of one feature's `input` prompt tokens (`cached` of them from the prompt cache) and `output`
 * generated tokens (reasoning costs as output): priced by `totalCost`, as the month's total is, so
 * the features' costs add up to it.
 */
function costOf(input: number, cached: number, output: number, rates: EurPerUnit): number {
  const billed = emptyCounters();
  billed.input = input;
  billed.cachedInput = cached;
  billed.output = output;
  return totalCost(billed, rates);
}

/** The inline part of a window's counters, billed at `rates` (the total's: the user's cached-input rate included). */
export function completionFigures(c: Readonly<Counters>, rates: EurPerUnit = CONTRACT_EUR_PER_UNIT): CompletionFigures {
  // Generated tokens at the output rate (reasoning has the same rate in the table).
  const costEur = costOf(c.inlineInput, c.inlineCached, c.inlineOutput, rates);
  const tokens = c.inlineInput + c.inlineOutput;
  return {
    requests: c.inlineAsked,
    sent: c.inlineRequests,
    shown: c.inlineShown,
    accepted: c.inlineAccepted,
    acceptedChars: c.inlineAcceptedChars,
    acceptedLines: c.inlineAcceptedLines,
    acceptanceRate: c.inlineShown > 0 ? Math.min(1, c.inlineAccepted / c.inlineShown) : undefined,
    tokens,
    tokensPerAcceptedChar: c.inlineAcceptedChars > 0 ? tokens / c.inlineAcceptedChars : undefined,
    costEur,
    eurPerAcceptedLine: c.inlineAcceptedLines > 0 ? costEur / c.inlineAcceptedLines : undefined,
    nextEdit: { sent: c.nextEditRequests, tokens: c.nextEditInput + c.nextEditOutput, costEur: costOf(c.nextEditInput, c.nextEditCached, c.nextEditOutput, rates) },
  };
}

/** Nothing to show yet: no request asked or sent, nothing shown. */
export function isEmptyCompletion(f: CompletionFigures): boolean {
  return f.requests === 0 && f.sent === 0 && f.shown === 0 && f.accepted === 0 && f.nextEdit.sent === 0;
}
