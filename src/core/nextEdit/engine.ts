import type { CompletionRequest } from '../inference';
import { SLOW_DEBOUNCE_FACTOR, TierBackoff, type BackoffState } from '../inlineCompletion/backoff';
import { LruCache } from '../inlineCompletion/cache';
import { DebounceScheduler, type Scheduled, type SchedulerTimers } from '../inlineCompletion/debounce';
import type { CompleteFn } from '../inlineCompletion/engine';
import type { PauseBudget } from '../inlineCompletion/pauseBudget';
import type { ContextSnippet } from '../inlineCompletion/prompt';
import { parseAnswer } from './answer';
import type { EditHistory } from './editHistory';
import { buildNextEditPrompt, CONTEXT_LINES } from './prompt';
import { renderEdits } from './renderEdits';
import { copiesOutside, isStale, rejection, unrelatedAnswer, type DocumentState, type RejectReason } from './rules';
import { toSuggestion, windowEdits, type NextEditDocument, type NextEditSuggestion } from './suggestion';
import { DEFAULT_WINDOW, editWindow, linesAround, type WindowLimits } from './window';

/** After the last edit, the user pauses this long before a next edit is asked for. */
export const DEFAULT_IDLE_MS = 400;

export type NoSuggestion =
  | RejectReason
  /** A newer edit (or cancel()) came first. */
  | 'superseded'
  /** The pause's one request went to ghost text (it showed something) and the pause did not last on. */
  | 'budgetSpent'
  /** The tier back-off pauses or stops requests, or saves tokens (single-line state). */
  | 'throttled'
  /** No recent edit in this document: nothing to follow up. */
  | 'noEdits'
  /** The cursor line, or the window with its answer, is too large for the budget. */
  | 'windowTooLarge'
  | 'failed'
  /** The answer held no code. */
  | 'noAnswer'
  /** The answer is no rewrite of the window (a refusal, an explanation, other code). */
  | 'unrelated'
  /** The answer was cut by max_tokens: the rest of the window would read as deleted. */
  | 'truncated'
  /** A `<think>` block in the answer never closed (an echoed "<think>" in the window): the rest would read as deleted. */
  | 'thinkingOpen';

export type NextEditResult = { kind: 'suggestion'; suggestion: NextEditSuggestion; source: 'network' | 'cache' } | { kind: 'none'; reason: NoSuggestion };

export interface NextEditContext {
  /** Definition snippets (the ghost-text context collector's), already filtered by the adapter. */
  snippets?: readonly ContextSnippet[];
  includeSnippet?: (snippet: ContextSnippet) => boolean;
  /** Last gate on a document whose edits would be shown, by id (ignored or untrusted): false leaves them out. */
  includeDocument?: (documentId: string) => boolean;
  /** Columns of a tab in this editor. */
  tabSize?: number;
}

export interface NextEditStats {
  requests: number;
  cacheHits: number;
  superseded: number;
  failures: number;
  shown: number;
  /** Answers dropped, by reason (stale ones included). */
  dropped: Partial<Record<NoSuggestion, number>>;
}

export interface NextEditEngineOptions {
  /** Sends the request; the adapter passes `purpose: 'nextEdit'`, so the meter counts kind nextEdit. */
  complete: CompleteFn;
  model: () => { id: string; maxModelLen: number | undefined };
  history: EditHistory;
  /** The document as it is now, to drop an answer the document moved on from. */
  documentNow: (documentId: string) => DocumentState | undefined;
  timers?: SchedulerTimers;
  now?: () => number;
  idleMs?: number;
  /** The ghost-text engine's back-off, shared: one tier throttle and one stop for both. */
  backoff?: TierBackoff;
  /**
   * The request budget shared with ghost text: when given, it decides when the idle pause has come
   * and admits this engine's request only when ghost text had nothing to show or the pause lasts.
   */
  budget?: PauseBudget;
  cacheEntries?: number;
  window?: WindowLimits;
  temperature?: number;
  /** Called once when requests stop (401/403/400): show one notification. */
  onStop?: (state: BackoffState) => void;
  /** Called after each request that reached the network (status bar, bench). */
  onRequest?: (info: { model: string; promptTokens: number; outcome: 'shown' | NoSuggestion; seq: number }) => void;
}

/**
 * Next edit suggestions without VS Code: asked for after an edit and an idle pause (never per
 * keystroke), one request at a time (a newer edit aborts the one in flight, through the ghost-text
 * DebounceScheduler), answers cached by prompt (its LruCache), requests admitted by the shared
 * TierBackoff. An answer becomes a suggestion only if it passes the rules (rules.ts) and the
 * document has not moved on under its window meanwhile. `suggest()` never throws.
 */
export class NextEditEngine {
  readonly stats: NextEditStats = { requests: 0, cacheHits: 0, superseded: 0, failures: 0, shown: 0, dropped: {} };
  readonly backoff: TierBackoff;
  private readonly scheduler: DebounceScheduler;
  private readonly cache: LruCache<string>;
  private readonly now: () => number;
  private readonly idleMs: number;

  constructor(private readonly options: NextEditEngineOptions) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.scheduler = new DebounceScheduler(options.timers ?? globalThis, this.idleMs);
    this.cache = new LruCache(options.cacheEntries ?? 50);
    this.backoff = options.backoff ?? new TierBackoff();
    this.now = options.now ?? Date.now;
  }

  /** The user edited `doc` (call after each change): a suggestion after the idle pause, or why none. */
  async suggest(doc: NextEditDocument, context: NextEditContext = {}, signal?: AbortSignal): Promise<NextEditResult> {
    if (!this.options.history.lastEdit(doc.id)) return this.none('noEdits', true);
    const admission = this.backoff.admit(this.now());
    if (!admission.allowed || admission.state.kind === 'singleLine') return this.none('throttled', true);
    const delay = admission.state.kind === 'slow' ? this.idleMs * SLOW_DEBOUNCE_FACTOR : this.idleMs;
    const budget = this.options.budget;
    budget?.keystroke(doc.id, doc.version);
    let outcome: Scheduled<NextEditResult>;
    try {
      outcome = await this.scheduler.schedule(async (jobSignal) => {
        if (!budget) return this.run(doc, context, jobSignal);
        const ticket = await budget.nextEdit(delay, jobSignal);
        if (!ticket) return { kind: 'none', reason: jobSignal.aborted ? 'superseded' : 'budgetSpent' } satisfies NextEditResult;
        // The next keystroke aborts the request at once (its answer could only be dropped as stale).
        let showed = false;
        try {
          const result = await this.run(doc, context, AbortSignal.any([jobSignal, ticket.signal]));
          showed = result.kind === 'suggestion';
          return result;
        } finally {
          ticket.done(showed);
        }
      }, signal, budget ? 0 : delay);
    } catch {
      // A bug in the pipeline must never reach the editor's typing path: no suggestion, counted.
      outcome = { kind: 'ran', value: { kind: 'none', reason: 'failed' } };
      this.stats.failures += 1;
    }
    if (outcome.kind === 'superseded') {
      this.stats.superseded += 1;
      return { kind: 'none', reason: 'superseded' };
    }
    const result = outcome.value;
    if (result.kind === 'suggestion') this.stats.shown += 1;
    else this.stats.dropped[result.reason] = (this.stats.dropped[result.reason] ?? 0) + 1;
    return result;
  }

  /** The user moved away, closed the editor, or accepted/dismissed a suggestion. */
  cancel(): void {
    this.scheduler.cancel();
  }

  private none(reason: NoSuggestion, cancelPending = false): NextEditResult {
    if (cancelPending) this.scheduler.cancel();
    return { kind: 'none', reason };
  }

  private async run(doc: NextEditDocument, context: NextEditContext, signal: AbortSignal): Promise<NextEditResult> {
    const { history } = this.options;
    const window = editWindow(doc.text, doc.cursor, this.options.window ?? DEFAULT_WINDOW);
    if (!window) return this.none('windowTooLarge');
    const model = this.options.model();
    const edits = renderEdits(history.edits(), { textOf: (id) => (id === doc.id ? doc.text : history.text(id)), ...(context.includeDocument ? { includeDocument: context.includeDocument } : {}) });
    const prompt = buildNextEditPrompt({
      languageId: doc.languageId,
      relativePath: doc.relativePath,
      text: doc.text,
      window,
      edits,
      snippets: context.snippets ?? [],
      ...(context.includeSnippet ? { includeSnippet: context.includeSnippet } : {}),
      budget: { maxModelLen: model.maxModelLen },
    });
    if (!prompt) return this.none('windowTooLarge');
    const key = JSON.stringify([model.id, prompt.key]);
    let raw = this.cache.get(key);
    const source = raw === undefined ? 'network' : 'cache';
    let seq = 0;
    if (raw === undefined) {
      const request: CompletionRequest = { model: model.id, messages: prompt.messages, max_tokens: prompt.maxTokens, temperature: this.options.temperature ?? 0.1 };
      this.stats.requests += 1;
      seq = this.stats.requests;
      const answer = await this.fetch(request, signal);
      if (answer.kind !== 'text') return this.drop(answer.kind, model.id, prompt.promptTokens, seq);
      raw = answer.text;
      this.cache.set(key, raw);
    } else this.stats.cacheHits += 1;

    const rewritten = parseAnswer(raw, window, context.tabSize !== undefined ? { tabSize: context.tabSize } : {});
    if (rewritten === undefined) return this.drop('noAnswer', model.id, prompt.promptTokens, seq);
    if (unrelatedAnswer(rewritten, window.text)) return this.drop('unrelated', model.id, prompt.promptTokens, seq);
    const around = linesAround(doc.text, window, CONTEXT_LINES);
    if (copiesOutside(rewritten, window.text, around.above, around.below)) return this.drop('outsideWindow', model.id, prompt.promptTokens, seq);
    const suggestion = toSuggestion(doc, window, windowEdits(window, rewritten));
    const rejected = rejection(suggestion, doc.text, history.lastEdit(doc.id));
    if (rejected) return this.drop(rejected, model.id, prompt.promptTokens, seq);
    if (isStale(suggestion, this.options.documentNow(doc.id))) return this.drop('stale', model.id, prompt.promptTokens, seq);
    this.report('shown', model.id, prompt.promptTokens, seq);
    return { kind: 'suggestion', suggestion, source };
  }

  /** Reports a request's outcome (seq 0: served from the cache, nothing reported). */
  private report(outcome: 'shown' | NoSuggestion, model: string, promptTokens: number, seq: number): void {
    if (seq > 0) this.options.onRequest?.({ model, promptTokens, outcome, seq });
  }

  private drop(reason: NoSuggestion, model: string, promptTokens: number, seq: number): NextEditResult {
    this.report(reason, model, promptTokens, seq);
    return { kind: 'none', reason };
  }

  private async fetch(request: CompletionRequest, signal: AbortSignal): Promise<{ kind: 'text'; text: string } | { kind: 'failed' } | { kind: 'truncated' } | { kind: 'thinkingOpen' }> {
    let text = '';
    try {
      const result = await this.options.complete(request, signal).consume((event) => {
        if (event.type === 'text') text += event.text;
      });
      this.backoff.observeSuccess();
      if (thinkingOpen(result)) return { kind: 'thinkingOpen' };
      return finishReasonOf(result) === 'length' ? { kind: 'truncated' } : { kind: 'text', text };
    } catch (error) {
      if (!signal.aborted) {
        this.stats.failures += 1;
        if (this.backoff.observeError(error, this.now()).notify) this.options.onStop?.(this.backoff.admit(this.now()).state);
      }
      return { kind: 'failed' };
    }
  }
}

/** The decoder reports a `<think>` block that never closed: the answer is not the window's code. */
function thinkingOpen(result: unknown): boolean {
  return typeof result === 'object' && result !== null && 'thinkingOpen' in result && result.thinkingOpen === true;
}

function finishReasonOf(result: unknown): unknown {
  return typeof result === 'object' && result !== null && 'finishReason' in result ? result.finishReason : undefined;
}
