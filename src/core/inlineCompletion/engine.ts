import type { ChatStreamEvent, CompletionRequest } from '../inference';
import { TierBackoff, type BackoffState } from './backoff';
import { LruCache } from './cache';
import { DebounceScheduler, DEFAULT_DEBOUNCE_MS, type SchedulerTimers } from './debounce';
import { EarlyStop, type StopReason } from './earlyStop';
import { decideMode, type CompletionMode } from './mode';
import { postProcess } from './postProcess';
import { buildPrompt, CURSOR_MARKER, type ContextSnippet } from './prompt';
import { InflightRequest, ReceivedSuggestions, type Anchor, type Candidate } from './speculation';
import type { BudgetTicket, PauseBudget } from './pauseBudget';
import { TriggerPolicy, type TriggerKind } from './trigger';

/** The document as the adapter saw it when the provider was called. */
export interface DocumentSnapshot {
  /** Identity of the document (its URI). */
  id: string;
  languageId: string;
  /** Workspace-relative path (shown to the model). */
  relativePath: string;
  text: string;
  /** Cursor offset in `text` (UTF-16 units). */
  offset: number;
  /** The document's version (the request budget counts one keystroke per version or cursor move). */
  version?: number;
}

export interface CompletionContext {
  /** Already filtered by the adapter (ignored files, untrusted workspace). */
  snippets?: readonly ContextSnippet[];
  /** Last gate on a snippet (see PromptInput.includeSnippet). */
  includeSnippet?: (snippet: ContextSnippet) => boolean;
}

export interface ProvideOptions {
  /**
   * The user asked (Alt+\, or cycling with Alt+] / Alt+[): no debounce, and a fresh suggestion
   * for this position is fetched even when type-ahead has one, so both can be cycled through.
   */
  explicit?: boolean;
}

/** What a streamed completion must offer: the core client's ChatStream fits. */
export interface CompletionStreamLike {
  consume(onEvent?: (event: ChatStreamEvent) => void): Promise<unknown>;
}

export type CompleteFn = (request: CompletionRequest, signal: AbortSignal) => CompletionStreamLike;

export interface InlineItem {
  /** Text to insert at the cursor. */
  insertText: string;
  mode: CompletionMode['kind'];
  source: 'network' | 'cache' | 'typeAhead';
  /** The request whose answer this is (the n-th request sent; see EngineStats.requests), when known. */
  requestSeq?: number;
}

export interface EngineStats {
  requests: number;
  cacheHits: number;
  typeAheadHits: number;
  /** Requests stopped early because the suggestion was decided. */
  stoppedEarly: number;
  /** Provide calls answered by nothing because a keystroke or a cancellation came first. */
  superseded: number;
  /** Requests aborted because their answer could no longer serve (the user typed something else, moved or left). */
  abandoned: number;
  failures: number;
}

export interface InlineCompletionEngineOptions {
  complete: CompleteFn;
  /** The completion model and its `max_model_len` (read on every request). */
  model: () => { id: string; maxModelLen: number | undefined };
  timers?: SchedulerTimers;
  now?: () => number;
  /** The least wait mid-line (the setting); pause points do not wait, see TriggerPolicy. */
  debounceMs?: number;
  cacheEntries?: number;
  temperature?: number;
  backoff?: TierBackoff;
  /**
   * The request budget shared with next edit suggestions: when given, it decides when a pause
   * has come (after the trigger's delay) and admits at most one request per pause between them.
   */
  budget?: PauseBudget;
  /** Called once when completions stop (401/403/400): show one notification. */
  onStop?: (state: BackoffState) => void;
  /** Called after every request that reached the network (for metering and the status bar). */
  onRequest?: (info: { model: string; promptTokens: number; stopReason: StopReason | undefined; shown: boolean; seq: number }) => void;
  /** Called with each trigger decision (the bench reads it). */
  onTrigger?: (kind: TriggerKind, delayMs: number) => void;
}

/**
 * After a cancellation by the caller with no newer call, the request in flight is aborted after
 * this grace (VS Code cancels a call on every keystroke and calls again right after: the request
 * must survive that to be reused, but not outlive an editor the user left).
 */
export const ORPHAN_GRACE_MS = 150;

/**
 * Inline completion without VS Code. Per call: type-ahead over the suggestions received lately
 * (shown or not), the back-off's admission, the mode, the prompt, the cache, the trigger (at once
 * at a pause point, else after the user's own rhythm, see TriggerPolicy), then the request: a
 * request still in flight for an earlier position on the same line is joined instead of sending
 * a new one (speculative reuse), with its early stop and post-processing. `provide()` never
 * throws: failures feed the back-off and yield undefined, so nothing ever blocks typing.
 */
export class InlineCompletionEngine {
  readonly stats: EngineStats = { requests: 0, cacheHits: 0, typeAheadHits: 0, stoppedEarly: 0, superseded: 0, abandoned: 0, failures: 0 };
  readonly backoff: TierBackoff;
  readonly trigger = new TriggerPolicy();
  private readonly scheduler: DebounceScheduler;
  private readonly cache: LruCache<string>;
  private readonly received = new ReceivedSuggestions();
  private readonly timers: SchedulerTimers;
  private readonly now: () => number;
  private inflight: InflightRequest | undefined;
  private calls = 0;

  constructor(private readonly options: InlineCompletionEngineOptions) {
    const debounce = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.timers = options.timers ?? globalThis;
    this.scheduler = new DebounceScheduler(this.timers, debounce);
    this.cache = new LruCache(options.cacheEntries ?? 100);
    this.backoff = options.backoff ?? new TierBackoff(debounce);
    this.now = options.now ?? Date.now;
  }

  async provide(doc: DocumentSnapshot, context: CompletionContext = {}, signal?: AbortSignal, options: ProvideOptions = {}): Promise<InlineItem[] | undefined> {
    const call = ++this.calls;
    const keyAt = this.now();
    const budget = this.options.budget;
    if (!options.explicit) {
      this.trigger.observeKeystroke(keyAt);
      budget?.keystroke(doc.id, doc.version, doc.offset);
    }
    const prefix = doc.text.slice(0, doc.offset);
    const suffix = doc.text.slice(doc.offset);
    const anchor: Anchor = { documentId: doc.id, prefix, suffix };
    if (this.inflight?.covers(anchor)) this.inflight.follow(anchor);
    else this.abandonInflight();
    signal?.addEventListener('abort', () => this.orphaned(call), { once: true });
    const ahead = this.received.candidates(anchor).map((c) => item(c, 'typeAhead'));
    if (ahead.length > 0 && !options.explicit) {
      this.scheduler.cancel();
      this.stats.typeAheadHits += 1;
      budget?.ghostShown();
      return ahead;
    }
    const admission = this.backoff.admit(this.now());
    if (!admission.allowed || signal?.aborted) {
      this.scheduler.cancel();
      this.abandonInflight();
      return undefined;
    }
    const mode: CompletionMode = admission.singleLineOnly ? { kind: 'single' } : decideMode(prefix, suffix);
    const model = this.options.model();
    const built = buildPrompt({
      prefix,
      suffix,
      languageId: doc.languageId,
      relativePath: doc.relativePath,
      mode,
      snippets: context.snippets ?? [],
      ...(context.includeSnippet ? { includeSnippet: context.includeSnippet } : {}),
      budget: { maxModelLen: model.maxModelLen },
    });
    const key = JSON.stringify([model.id, built.key]);
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.scheduler.cancel();
      this.stats.cacheHits += 1;
      budget?.ghostShown();
      this.received.add(anchor, cached, undefined);
      return merge([item({ text: cached, seq: undefined }, 'cache', mode)], ahead);
    }
    const trigger = options.explicit ? { kind: 'pausePoint' as const, delayMs: 0 } : this.trigger.decide(prefix, admission.debounceMs, admission.state.kind !== 'normal');
    this.options.onTrigger?.(trigger.kind, trigger.delayMs);
    const joinable = this.inflight?.covers(anchor) === true && !options.explicit ? this.inflight : undefined;
    const request: CompletionRequest = { model: model.id, messages: built.messages, max_tokens: built.maxTokens, temperature: this.options.temperature ?? 0.2 };
    // The user's own Alt+\ is no pause to detect: it goes at once, outside the budget.
    const gate = options.explicit ? undefined : budget;
    const outcome = await this.scheduler.schedule(async (jobSignal) => {
      if (joinable) {
        await untilSettled(joinable.result, jobSignal);
        const rest = this.received.candidates(anchor);
        if (rest.length > 0 || jobSignal.aborted) return { found: rest, source: 'typeAhead' as const };
        // The answer did not fit what was typed since: wait out the rest of the trigger's delay
        // (the budget measures it from the last keystroke itself).
        if (!gate) await this.sleep(trigger.delayMs - (this.now() - keyAt), jobSignal);
        if (jobSignal.aborted) return { found: [], source: 'network' as const };
      }
      let ticket: BudgetTicket | undefined;
      if (gate) {
        ticket = await gate.ghostText(trigger.delayMs, jobSignal);
        if (!ticket) return { found: [], source: 'network' as const };
      }
      const started = this.start(request, anchor, mode, key, built.promptTokens);
      if (ticket) {
        const admitted = ticket;
        void started.result.then((answer) => admitted.done(answer !== undefined));
      }
      const text = await untilSettled(started.result, jobSignal);
      return { found: text === undefined ? [] : [{ text, seq: started.seq }], source: 'network' as const };
    }, signal, joinable || gate ? 0 : trigger.delayMs);
    if (outcome.kind === 'superseded' || outcome.value.found.length === 0) {
      if (outcome.kind === 'superseded') this.stats.superseded += 1;
      return undefined;
    }
    if (outcome.value.source === 'typeAhead') this.stats.typeAheadHits += 1;
    const fresh = outcome.value.found.map((c) => item(c, outcome.value.source, mode));
    return merge(fresh, ahead);
  }

  /** The user typed elsewhere, closed the editor or the provider was disposed. */
  cancel(): void {
    this.scheduler.cancel();
    this.abandonInflight();
  }

  /** Forget the suggestions received (one was accepted, or dismissed with Esc). */
  clearShown(): void {
    this.received.clear();
  }

  /** Starts a request for `anchor`; its answer goes to the cache and the received suggestions. */
  private start(request: CompletionRequest, anchor: Anchor, mode: CompletionMode, key: string, promptTokens: number): InflightRequest {
    this.abandonInflight();
    let resolveResult: (text: string | undefined) => void = () => undefined;
    const result = new Promise<string | undefined>((r) => (resolveResult = r));
    this.stats.requests += 1;
    const seq = this.stats.requests;
    const inflight = new InflightRequest(anchor, mode, result, seq);
    this.inflight = inflight;
    void this.fetch(request, inflight, promptTokens, seq).then((text) => {
      if (this.inflight === inflight) this.inflight = undefined;
      if (text !== undefined) {
        this.cache.set(key, text);
        this.received.add(anchor, text, seq);
      }
      resolveResult(text);
    });
    return inflight;
  }

  private abandonInflight(): void {
    const inflight = this.inflight;
    this.inflight = undefined;
    if (!inflight) return;
    if (inflight.abandon()) this.stats.abandoned += 1;
  }

  /** The caller cancelled call `call`: unless a newer call came, the request stops after a grace. */
  private orphaned(call: number): void {
    this.timers.setTimeout(() => {
      if (this.calls === call) this.cancel();
    }, ORPHAN_GRACE_MS);
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (ms <= 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const handle = this.timers.setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        this.timers.clearTimeout(handle);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private async fetch(request: CompletionRequest, inflight: InflightRequest, promptTokens: number, seq: number): Promise<string | undefined> {
    const { anchor, mode } = inflight;
    const stop = new EarlyStop(mode, anchor.prefix.slice(anchor.prefix.lastIndexOf('\n') + 1), request.max_tokens ?? 64);
    const signal = inflight.signal;
    let failed = false;
    try {
      await this.options.complete(request, signal).consume((event) => {
        if (event.type !== 'text' || signal.aborted) return;
        if (!inflight.streamedDelta(event.text)) {
          // The user typed something this answer contradicts: it can serve nobody.
          this.stats.abandoned += 1;
          if (this.inflight === inflight) this.inflight = undefined;
          return;
        }
        if (stop.push(event.text)) inflight.stop();
      });
    } catch (error) {
      if (!stop.stopReason && !signal.aborted) {
        failed = true;
        this.stats.failures += 1;
        if (this.backoff.observeError(error, this.now()).notify) this.options.onStop?.(this.backoff.admit(this.now()).state);
      }
    }
    if (failed || inflight.abandoned) return undefined;
    this.backoff.observeSuccess();
    if (stop.stopReason) this.stats.stoppedEarly += 1;
    const text = postProcess({ raw: stop.text(), prefix: anchor.prefix, suffix: anchor.suffix, mode, marker: CURSOR_MARKER });
    this.options.onRequest?.({ model: request.model, promptTokens, stopReason: stop.stopReason, shown: text !== undefined, seq });
    return text;
  }
}

function item(candidate: Candidate, source: InlineItem['source'], mode?: CompletionMode): InlineItem {
  const { text, seq } = candidate;
  return { insertText: text, mode: mode?.kind ?? (text.includes('\n') ? 'multi' : 'single'), source, ...(seq !== undefined ? { requestSeq: seq } : {}) };
}

/** `first`, then the items of `more` whose text is new (Alt+] / Alt+[ cycle through them). */
function merge(first: InlineItem[], more: InlineItem[]): InlineItem[] {
  const seen = new Set(first.map((i) => i.insertText));
  return [...first, ...more.filter((i) => !seen.has(i.insertText) && seen.add(i.insertText))];
}

/** The promise's value, or undefined as soon as `signal` aborts (the promise keeps running). */
function untilSettled<T>(promise: Promise<T | undefined>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}
