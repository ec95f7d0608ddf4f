import type { GenerationKind, InlineStat, UsageEvent } from './events';
import { DAY_MS, HOUR_MS, startOfDay, startOfHour, startOfMinute } from './time';
import { isCalendarSafe } from './validate';

/** What one bucket counts, for one model. Audio minutes are started minutes, summed per request. */
export interface Counters {
  requests: number;
  /** Chat/completion prompt tokens. */
  input: number;
  /** Chat/completion output tokens other than reasoning. */
  output: number;
  reasoning: number;
  embeddings: number;
  rerankTokens: number;
  searchUnits: number;
  audioSeconds: number;
  audioMinutes: number;
  /** Requests whose figures were estimated (no usage from the server). */
  estimated: number;
  /**
   * Inline completion. `inlineRequests` are the requests metered as kind `completion`; their
   * tokens are counted in `input` / `output` / `reasoning` (billed and capped like chat) and
   * again here, as a subset: `inlineInput` (prompt) and `inlineOutput` (generated, reasoning
   * included).
   */
  inlineRequests: number;
  inlineInput: number;
  inlineOutput: number;
  /** Acceptance statistics (inlineStat events): the provider asked, suggestions shown, accepted. */
  inlineAsked: number;
  inlineShown: number;
  inlineShownChars: number;
  inlineShownLines: number;
  inlineAccepted: number;
  inlineAcceptedChars: number;
  inlineAcceptedLines: number;
  /**
   * Prompt tokens served from the server's prompt cache: a subset of `input` (billed at the
   * cached-input rate), and `inlineCached` the part of it from inline completion.
   */
  cachedInput: number;
  inlineCached: number;
  /**
   * Prompt tokens and their cached part per feature, for the cache share per feature: edits,
   * commit messages, next edit suggestions, OCR pages and reviews (inline completion has its own above;
   * chat and the agent are the rest).
   */
  editInput: number;
  editCached: number;
  commitInput: number;
  commitCached: number;
  nextEditInput: number;
  nextEditCached: number;
  ocrInput: number;
  ocrCached: number;
  reviewInput: number;
  reviewCached: number;
  /**
   * Next edit suggestions: the requests metered as kind `nextEdit` and their generated tokens
   * (reasoning included), a subset of `output` / `reasoning` as for inline (prompt: `nextEditInput`).
   */
  nextEditRequests: number;
  nextEditOutput: number;
  /**
   * Prompt tokens (and their cached part) of buckets stored before the per-feature counters: their
   * feature is unknown, so the cache share per feature lists them apart instead of under chat.
   * Set when such a bucket is read (`markUnsplit`), a subset of `input` / `cachedInput`.
   */
  unsplitInput: number;
  unsplitCached: number;
  /**
   * Asynchronous batch work (events of kind `batch`): its results, prompt and generated tokens.
   * Apart from `input` / `output`: billed at the batch rates and never counted against the caps.
   */
  batchRequests: number;
  batchInput: number;
  batchOutput: number;
}

/** The counters every stored bucket has had since the first format. */
export const BASE_COUNTER_KEYS: readonly (keyof Counters)[] = ['requests', 'input', 'output', 'reasoning', 'embeddings', 'rerankTokens', 'searchUnits', 'audioSeconds', 'audioMinutes', 'estimated'];
/** Added with inline completion: a bucket written before has none of them (read as 0). */
export const INLINE_COUNTER_KEYS: readonly (keyof Counters)[] = [
  'inlineRequests',
  'inlineInput',
  'inlineOutput',
  'inlineAsked',
  'inlineShown',
  'inlineShownChars',
  'inlineShownLines',
  'inlineAccepted',
  'inlineAcceptedChars',
  'inlineAcceptedLines',
];
/** Added with cached prompt tokens: a bucket written before has none of them (read as 0). */
export const CACHE_COUNTER_KEYS: readonly (keyof Counters)[] = ['cachedInput', 'inlineCached'];
/** Generation kinds other than chat and inline completion, with their prompt and cached counters. */
export const FEATURE_PROMPT_COUNTERS = {
  edit: { input: 'editInput', cached: 'editCached' },
  commit: { input: 'commitInput', cached: 'commitCached' },
  nextEdit: { input: 'nextEditInput', cached: 'nextEditCached' },
  ocr: { input: 'ocrInput', cached: 'ocrCached' },
  review: { input: 'reviewInput', cached: 'reviewCached' },
} as const satisfies Partial<Record<GenerationKind, { input: keyof Counters; cached: keyof Counters }>>;
/** Added with the cache share per feature: a bucket written before has none of them (read as 0). */
export const FEATURE_COUNTER_KEYS: readonly (keyof Counters)[] = Object.values(FEATURE_PROMPT_COUNTERS).flatMap((k) => [k.input, k.cached]);
/** Added with next edit suggestions: a bucket written before has none of them (read as 0). */
export const NEXT_EDIT_COUNTER_KEYS: readonly (keyof Counters)[] = ['nextEditRequests', 'nextEditOutput'];
/** Added with the "earlier, not split" row of the cache share: absent from buckets written before (read as 0). */
export const UNSPLIT_COUNTER_KEYS: readonly (keyof Counters)[] = ['unsplitInput', 'unsplitCached'];
/** Added with batch work: absent from buckets written before (read as 0). */
export const BATCH_COUNTER_KEYS: readonly (keyof Counters)[] = ['batchRequests', 'batchInput', 'batchOutput'];
export const COUNTER_KEYS: readonly (keyof Counters)[] = [...BASE_COUNTER_KEYS, ...INLINE_COUNTER_KEYS, ...CACHE_COUNTER_KEYS, ...FEATURE_COUNTER_KEYS, ...NEXT_EDIT_COUNTER_KEYS, ...UNSPLIT_COUNTER_KEYS, ...BATCH_COUNTER_KEYS];

/**
 * A bucket read from disk with none of the per-feature counters was written before they existed:
 * its prompts (beyond inline completion's, counted apart since earlier) may be edits, commit
 * messages or OCR pages as well as chat, so they are marked unsplit rather than left to count as chat.
 */
export function markUnsplit(c: Counters, stored: Readonly<Record<string, unknown>>): void {
  if (!FEATURE_COUNTER_KEYS.every((k) => stored[k] === undefined) || !UNSPLIT_COUNTER_KEYS.every((k) => stored[k] === undefined)) return;
  c.unsplitInput = Math.max(0, c.input - c.inlineInput);
  c.unsplitCached = Math.min(c.unsplitInput, Math.max(0, c.cachedInput - c.inlineCached));
}

export function emptyCounters(): Counters {
  const c = {} as Counters;
  for (const k of COUNTER_KEYS) c[k] = 0;
  return c;
}

export function addCounters(into: Counters, from: Readonly<Counters>): Counters {
  for (const k of COUNTER_KEYS) into[k] += from[k];
  return into;
}

/** Output tokens as the caps count them: everything generated, reasoning included. */
export function cappedOutput(c: Readonly<Counters>): number {
  return c.output + c.reasoning;
}

/** Granularity: minute, local hour, local day. */
export type Grain = 'm' | 'h' | 'd';

export interface Bucket {
  g: Grain;
  /** Start, Unix ms (a UTC minute, a local hour or a local midnight). */
  s: number;
  /** Model id ('' when unknown). */
  m: string;
  c: Counters;
}

export type RateLimitEvent = Extract<UsageEvent, { kind: 'rateLimit' }>;

function nonNegative(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

function inlineStatCounters(c: Counters, stat: InlineStat, chars: number, lines: number): Counters {
  switch (stat) {
    case 'requested':
      c.inlineAsked = 1;
      break;
    case 'shown':
      c.inlineShown = 1;
      c.inlineShownChars = chars;
      c.inlineShownLines = lines;
      break;
    case 'accepted':
      c.inlineAccepted = 1;
      c.inlineAcceptedChars = chars;
      c.inlineAcceptedLines = lines;
      break;
  }
  return c;
}

/** The counters one event adds, or undefined for events that count nothing (rate limits). */
export function countersOf(event: UsageEvent): Counters | undefined {
  const c = emptyCounters();
  switch (event.kind) {
    case 'chat':
    case 'edit':
    case 'commit':
    case 'nextEdit':
    case 'review':
    case 'completion':
    case 'ocr': {
      const completion = nonNegative(event.completionTokens);
      const reasoning = Math.min(nonNegative(event.reasoningTokens), completion);
      c.input = nonNegative(event.promptTokens);
      // The service counts reasoning inside completion_tokens: split them, never count twice.
      c.output = completion - reasoning;
      c.reasoning = reasoning;
      c.cachedInput = Math.min(nonNegative(event.cachedTokens), c.input);
      if (event.kind === 'completion') {
        c.inlineRequests = 1;
        c.inlineInput = c.input;
        c.inlineOutput = completion;
        c.inlineCached = c.cachedInput;
      } else if (event.kind !== 'chat') {
        const keys = FEATURE_PROMPT_COUNTERS[event.kind];
        c[keys.input] = c.input;
        c[keys.cached] = c.cachedInput;
      }
      if (event.kind === 'nextEdit') {
        c.nextEditRequests = 1;
        c.nextEditOutput = completion;
      }
      break;
    }
    case 'inlineStat':
      // Statistics, not a request: nothing billable, `requests` untouched.
      return inlineStatCounters(c, event.stat, nonNegative(event.chars), nonNegative(event.lines));
    case 'embeddings':
      c.embeddings = nonNegative(event.promptTokens);
      break;
    case 'rerank':
      c.rerankTokens = nonNegative(event.rerankedTokens);
      c.searchUnits = nonNegative(event.searchUnits);
      break;
    case 'transcription': {
      const seconds = nonNegative(event.audioSeconds);
      c.audioSeconds = seconds;
      // Any started minute is billed.
      c.audioMinutes = Math.ceil(seconds / 60);
      break;
    }
    case 'batch': {
      // Not `input` / `output`: those are priced at the standard rates and capped.
      const requests = Math.floor(nonNegative(event.requests));
      c.batchRequests = requests;
      c.batchInput = nonNegative(event.promptTokens);
      c.batchOutput = nonNegative(event.completionTokens);
      c.requests = requests;
      if (event.estimated === true) c.estimated = requests;
      return c;
    }
    case 'rateLimit':
      return undefined;
  }
  c.requests = 1;
  if ('estimated' in event && event.estimated === true) c.estimated = 1;
  return c;
}

/** How long each grain is kept before it is folded into the next. */
export const RETENTION = { minutesMs: 2 * HOUR_MS, hoursMs: 48 * HOUR_MS, daysMs: 400 * DAY_MS } as const;

/**
 * Aggregated usage: buckets by grain, start and model. Bounded: minutes older than two hours are
 * folded into their local hour, hours older than two days into their local day, days older than
 * 400 days dropped. A quantity lives in exactly one bucket, so any window is a plain sum.
 */
export class Ledger {
  private readonly buckets = new Map<string, Bucket>();
  rateLimit: RateLimitEvent | undefined;

  constructor(readonly timeZone: string) {}

  static from(buckets: readonly Bucket[], timeZone: string, rateLimit?: RateLimitEvent): Ledger {
    const ledger = new Ledger(timeZone);
    // Callers validate; a start no calendar can place would make every fold throw.
    for (const b of buckets) if (isCalendarSafe(b.s)) ledger.addTo(b.g, b.s, b.m, b.c);
    ledger.rateLimit = rateLimit;
    return ledger;
  }

  clone(): Ledger {
    return Ledger.from(this.all(), this.timeZone, this.rateLimit);
  }

  all(): Bucket[] {
    return [...this.buckets.values()].map((b) => ({ ...b, c: { ...b.c } }));
  }

  get size(): number {
    return this.buckets.size;
  }

  add(event: UsageEvent): void {
    if (event.kind === 'rateLimit') {
      if (!this.rateLimit || event.at >= this.rateLimit.at) this.rateLimit = event;
      return;
    }
    const counters = countersOf(event);
    if (!counters || !isCalendarSafe(event.at)) return;
    this.addTo('m', startOfMinute(event.at), typeof event.model === 'string' ? event.model : '', counters);
  }

  private addTo(g: Grain, s: number, m: string, c: Readonly<Counters>): void {
    const key = `${g}|${s}|${m}`;
    const existing = this.buckets.get(key);
    if (existing) addCounters(existing.c, c);
    else this.buckets.set(key, { g, s, m, c: addCounters(emptyCounters(), c) });
  }

  /** Folds old minutes into hours and old hours into days; drops days past retention. */
  fold(now: number): void {
    for (const [key, b] of [...this.buckets]) {
      if (b.g === 'm' && b.s < now - RETENTION.minutesMs) {
        this.buckets.delete(key);
        this.addTo('h', startOfHour(b.s, this.timeZone), b.m, b.c);
      }
    }
    for (const [key, b] of [...this.buckets]) {
      if (b.g === 'h' && b.s < now - RETENTION.hoursMs) {
        this.buckets.delete(key);
        this.addTo('d', startOfDay(b.s, this.timeZone), b.m, b.c);
      }
    }
    for (const [key, b] of [...this.buckets]) {
      if (b.g === 'd' && b.s < now - RETENTION.daysMs) this.buckets.delete(key);
    }
  }

  /** Totals of every bucket starting in [from, to), by model. */
  byModel(from: number, to: number): Map<string, Counters> {
    const out = new Map<string, Counters>();
    for (const b of this.buckets.values()) {
      if (b.s < from || b.s >= to) continue;
      const c = out.get(b.m) ?? emptyCounters();
      addCounters(c, b.c);
      out.set(b.m, c);
    }
    return out;
  }

  total(from: number, to: number): Counters {
    const c = emptyCounters();
    for (const b of this.buckets.values()) if (b.s >= from && b.s < to) addCounters(c, b.c);
    return c;
  }
}
