import type { ChatStreamEvent, CompletionRequest } from '../inference';
import { TierBackoff, type BackoffState } from './backoff';
import { LruCache, typeAhead, type ShownSuggestion } from './cache';
import { DebounceScheduler, DEFAULT_DEBOUNCE_MS, type SchedulerTimers } from './debounce';
import { EarlyStop, type StopReason } from './earlyStop';
import { decideMode, type CompletionMode } from './mode';
import { postProcess } from './postProcess';
import { buildPrompt, CURSOR_MARKER, type ContextSnippet } from './prompt';

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
}

export interface CompletionContext {
  /** Already filtered by the adapter (ignored files, untrusted workspace). */
  snippets?: readonly ContextSnippet[];
  /** Last gate on a snippet (see PromptInput.includeSnippet). */
  includeSnippet?: (snippet: ContextSnippet) => boolean;
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
}

export interface EngineStats {
  requests: number;
  cacheHits: number;
  typeAheadHits: number;
  /** Requests stopped early because the suggestion was decided. */
  stoppedEarly: number;
  /** Requests abandoned because of a keystroke or a cancellation. */
  superseded: number;
  failures: number;
}

export interface InlineCompletionEngineOptions {
  complete: CompleteFn;
  /** The completion model and its `max_model_len` (read on every request). */
  model: () => { id: string; maxModelLen: number | undefined };
  timers?: SchedulerTimers;
  now?: () => number;
  debounceMs?: number;
  cacheEntries?: number;
  temperature?: number;
  backoff?: TierBackoff;
  /** Called once when completions stop (401/403/400): show one notification. */
  onStop?: (state: BackoffState) => void;
  /** Called after every request that reached the network (for metering and the status bar). */
  onRequest?: (info: { model: string; promptTokens: number; stopReason: StopReason | undefined; shown: boolean }) => void;
}

/**
 * Inline completion without VS Code: type-ahead, then the back-off's admission, the mode, the
 * prompt, the cache, the debounce (which aborts the previous request), the streamed request with
 * its early stop, and post-processing. `provide()` never throws: failures feed the back-off and
 * yield undefined, so nothing ever blocks typing.
 */
export class InlineCompletionEngine {
  readonly stats: EngineStats = { requests: 0, cacheHits: 0, typeAheadHits: 0, stoppedEarly: 0, superseded: 0, failures: 0 };
  readonly backoff: TierBackoff;
  private readonly scheduler: DebounceScheduler;
  private readonly cache: LruCache<string>;
  private readonly now: () => number;
  private shown: ShownSuggestion | undefined;

  constructor(private readonly options: InlineCompletionEngineOptions) {
    const debounce = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.scheduler = new DebounceScheduler(options.timers ?? globalThis, debounce);
    this.cache = new LruCache(options.cacheEntries ?? 100);
    this.backoff = options.backoff ?? new TierBackoff(debounce);
    this.now = options.now ?? Date.now;
  }

  async provide(doc: DocumentSnapshot, context: CompletionContext = {}, signal?: AbortSignal): Promise<InlineItem[] | undefined> {
    const prefix = doc.text.slice(0, doc.offset);
    const suffix = doc.text.slice(doc.offset);
    const ahead = typeAhead(this.shown, doc.id, prefix);
    if (ahead !== undefined) {
      this.scheduler.cancel();
      this.stats.typeAheadHits += 1;
      return [{ insertText: ahead, mode: ahead.includes('\n') ? 'multi' : 'single', source: 'typeAhead' }];
    }
    this.shown = undefined;
    const admission = this.backoff.admit(this.now());
    if (!admission.allowed || signal?.aborted) {
      this.scheduler.cancel();
      return undefined;
    }
    const decided = decideMode(prefix, suffix);
    const mode: CompletionMode = admission.singleLineOnly ? { kind: 'single' } : decided;
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
      return this.show(doc.id, prefix, cached, mode, 'cache');
    }
    const request: CompletionRequest = { model: model.id, messages: built.messages, max_tokens: built.maxTokens, temperature: this.options.temperature ?? 0.2 };
    const outcome = await this.scheduler.schedule(async (jobSignal) => this.fetch(request, jobSignal, mode, prefix, suffix, built.promptTokens), signal, admission.debounceMs);
    if (outcome.kind === 'superseded' || outcome.value === undefined) {
      if (outcome.kind === 'superseded') this.stats.superseded += 1;
      return undefined;
    }
    this.cache.set(key, outcome.value);
    return this.show(doc.id, prefix, outcome.value, mode, 'network');
  }

  /** The user typed elsewhere, closed the editor or the provider was disposed. */
  cancel(): void {
    this.scheduler.cancel();
  }

  /** Forget the ghost text shown (dismissed with Esc, or accepted). */
  clearShown(): void {
    this.shown = undefined;
  }

  private show(documentId: string, prefix: string, text: string, mode: CompletionMode, source: InlineItem['source']): InlineItem[] {
    this.shown = { documentId, prefix, text };
    return [{ insertText: text, mode: mode.kind, source }];
  }

  private async fetch(request: CompletionRequest, signal: AbortSignal, mode: CompletionMode, prefix: string, suffix: string, promptTokens: number): Promise<string | undefined> {
    const stop = new EarlyStop(mode, prefix.slice(prefix.lastIndexOf('\n') + 1), request.max_tokens ?? 64);
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    this.stats.requests += 1;
    let failed = false;
    try {
      await this.options.complete(request, controller.signal).consume((event) => {
        if (event.type === 'text' && stop.push(event.text) && !controller.signal.aborted) controller.abort();
      });
    } catch (error) {
      if (!stop.stopReason && !signal.aborted) {
        failed = true;
        this.stats.failures += 1;
        if (this.backoff.observeError(error, this.now()).notify) this.options.onStop?.(this.backoff.admit(this.now()).state);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (failed || signal.aborted) return undefined;
    this.backoff.observeSuccess();
    if (stop.stopReason) this.stats.stoppedEarly += 1;
    const text = postProcess({ raw: stop.text(), prefix, suffix, mode, marker: CURSOR_MARKER });
    this.options.onRequest?.({ model: request.model, promptTokens, stopReason: stop.stopReason, shown: text !== undefined });
    return text;
  }
}
