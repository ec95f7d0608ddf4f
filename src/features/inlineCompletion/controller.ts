import * as vscode from 'vscode';
import { InlineCompletionEngine, PauseBudget, type BackoffState, type CompletionStreamLike } from '../../core/inlineCompletion';
import type { UsageSnapshot } from '../../core/usage/summary';
import { showError } from '../../platform/errorNotification';
import type { Deps } from '../deps';
import { defaultChatModel } from '../../services/chatModelSelection';
import { affectsInline, languageEnabled, readInlineSettings } from './settings';
import type { CompletionTelemetrySink } from './telemetry';
import type { GhostTextGates, ModelRef } from '../../services/ghostTextShare';

/** What the status bar shows: the state of inline completion for the active editor. */
export type InlineStatus =
  | { kind: 'on'; model: string | undefined }
  | { kind: 'off'; reason: 'disabled' | 'language' | 'noApiKey'; language?: string }
  | { kind: 'snoozed'; until: number; minutesLeft: number }
  | { kind: 'throttled'; state: Extract<BackoffState, { kind: 'slow' | 'singleLine' | 'paused' }> }
  | { kind: 'error'; state: Extract<BackoffState, { kind: 'stopped' }> };

const USAGE_READ_EVERY_MS = 5_000;

/**
 * The VS Code side of the engine: settings, snooze, the API key, the completion model, and the
 * back-off's stop turned into one notification. The provider asks it whether to complete; the
 * status bar shows `status()` and listens to `onDidChange`.
 */
export class InlineController implements vscode.Disposable, GhostTextGates {
  private engineInstance: { engine: InlineCompletionEngine; debounceMs: number } | undefined;
  private snoozedUntil: number | undefined;
  private snoozeTimer: ReturnType<typeof setInterval> | undefined;
  private resumeTimer: ReturnType<typeof setTimeout> | undefined;
  private apiKey: Promise<boolean> | undefined;
  private currentModel: ModelRef | undefined;
  private lastError: unknown;
  private lastModelId: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Notifications shown because completions stopped (host tests). */
  stopNotifications = 0;
  private usageReadAt = 0;
  /** The request budget ghost text shares with next edits: it outlives a rebuilt engine. */
  readonly budget = new PauseBudget();

  constructor(
    private readonly deps: Deps,
    private readonly telemetry: () => CompletionTelemetrySink,
    /** The usage meter's snapshot (hour/day caps and forecast): the tier back-off's input. */
    private readonly usage?: () => UsageSnapshot,
  ) {
    this.subscriptions = [
      this.changed,
      // The key or the inference settings changed: a stop may be over, try again.
      deps.inference.onDidChange(() => {
        this.apiKey = undefined;
        this.engineInstance?.engine.backoff.reset();
        this.refresh();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!affectsInline(event)) return;
        this.engineInstance?.engine.backoff.reset();
        this.refresh();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      // A document opened again at the same address numbers its versions afresh (see forget).
      vscode.workspace.onDidCloseTextDocument((document) => this.budget.forget(document.uri.toString())),
    ];
  }

  /** The engine, rebuilt when the debounce setting changes (cache and back-off start afresh). */
  get engine(): InlineCompletionEngine {
    const debounceMs = readInlineSettings().debounceMs;
    if (this.engineInstance?.debounceMs !== debounceMs) {
      this.engineInstance?.engine.cancel();
      this.engineInstance = { engine: this.createEngine(debounceMs), debounceMs };
    }
    return this.engineInstance.engine;
  }

  private createEngine(debounceMs: number): InlineCompletionEngine {
    return new InlineCompletionEngine({
      debounceMs,
      budget: this.budget,
      model: () => this.currentModel ?? { id: '', maxModelLen: undefined },
      complete: (request, signal): CompletionStreamLike => {
        this.telemetry().requested();
        const stream = this.deps.inference.client().completeStream(request, { signal, purpose: 'inline' });
        return {
          consume: (onEvent) => stream.consume(onEvent).catch((error: unknown) => {
            this.lastError = error;
            throw error;
          }),
        };
      },
      onStop: () => this.notifyStopped(),
      onRequest: () => {
        this.readUsage(true);
        this.refresh();
      },
    });
  }

  /** Why not to complete in `document` now, or undefined to go ahead. */
  async blocked(document: vscode.TextDocument): Promise<'off' | 'snoozed' | 'paused' | undefined> {
    const settings = readInlineSettings(document);
    if (!settings.enabled || !languageEnabled(settings, document.languageId)) return 'off';
    if (this.snoozeLeft() !== undefined) return 'snoozed';
    if (!(await this.hasApiKey())) return 'off';
    this.readUsage(false);
    // Stopped or paused: not even the model list is asked for (never a 401 or 429 loop).
    if (!this.engine.backoff.admit(Date.now()).allowed) return 'paused';
    return undefined;
  }

  /** The completion model: the setting, else the chat model in use; its context length from /v1/models. */
  async resolveModel(signal: AbortSignal): Promise<ModelRef | undefined> {
    const wanted = readInlineSettings().model;
    try {
      const model = await this.lookupModel(wanted, signal);
      this.currentModel = model;
      if (model?.id !== this.lastModelId) {
        this.lastModelId = model?.id;
        this.refresh();
      }
      return model;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /**
   * Another feature's model (next edit suggestions): `wanted` with its context length from
   * /v1/models, or, when empty, the ghost-text model. Failures take the same back-off.
   */
  async resolveModelFor(wanted: string, signal: AbortSignal): Promise<ModelRef | undefined> {
    if (!wanted) return this.resolveModel(signal);
    try {
      return await this.lookupModel(wanted, signal);
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  private async lookupModel(wanted: string, signal: AbortSignal): Promise<ModelRef | undefined> {
    if (wanted) {
      const listed = await this.deps.inference.client().models.list({ signal });
      const found = listed.find((m) => m.id === wanted || m.aliases.includes(wanted));
      return { id: wanted, maxModelLen: found?.maxModelLen };
    }
    const chat = await defaultChatModel(this.deps.inference, signal);
    return chat ? { id: chat.id, maxModelLen: chat.maxModelLen } : undefined;
  }

  /** Requests of another feature sharing the back-off (next edit) stopped on `error`: the one notification. */
  reportStopped(error: unknown): void {
    this.lastError = error;
    this.notifyStopped();
  }

  /** A failure outside the engine's own request (listing the models): the same back-off. */
  fail(error: unknown): void {
    if (signalLike(error)) return;
    this.lastError = error;
    if (this.engine.backoff.observeError(error, Date.now()).notify) this.notifyStopped();
    this.refresh();
  }

  snooze(minutes: number): void {
    this.snoozedUntil = minutes > 0 ? Date.now() + minutes * 60_000 : undefined;
    this.engineInstance?.engine.cancel();
    if (this.snoozeTimer !== undefined) clearInterval(this.snoozeTimer);
    this.snoozeTimer = undefined;
    // The status bar counts the minutes down; the snooze ends on the first tick after it expires.
    if (this.snoozedUntil !== undefined) this.snoozeTimer = setInterval(() => this.refresh(), 15_000);
    this.refresh();
  }

  /** Minutes of snooze left, or undefined when not snoozed. */
  snoozeLeft(): number | undefined {
    if (this.snoozedUntil === undefined) return undefined;
    const left = this.snoozedUntil - Date.now();
    if (left > 0) return Math.ceil(left / 60_000);
    this.snoozedUntil = undefined;
    if (this.snoozeTimer !== undefined) clearInterval(this.snoozeTimer);
    this.snoozeTimer = undefined;
    return undefined;
  }

  /** Try again after a stop (the menu's Retry). */
  retry(): void {
    this.engineInstance?.engine.backoff.reset();
    this.refresh();
  }

  /** The state for the active editor (or the global one without an editor). */
  async status(): Promise<InlineStatus> {
    const settings = readInlineSettings(vscode.window.activeTextEditor?.document);
    if (!settings.enabled) return { kind: 'off', reason: 'disabled' };
    const language = vscode.window.activeTextEditor?.document.languageId;
    if (language !== undefined && !languageEnabled(settings, language)) return { kind: 'off', reason: 'language', language };
    const left = this.snoozeLeft();
    if (left !== undefined && this.snoozedUntil !== undefined) return { kind: 'snoozed', until: this.snoozedUntil, minutesLeft: left };
    if (!(await this.hasApiKey())) return { kind: 'off', reason: 'noApiKey' };
    const state = this.engineInstance?.engine.backoff.state(Date.now()) ?? { kind: 'normal' };
    this.scheduleResume(state);
    if (state.kind === 'stopped') return { kind: 'error', state };
    if (state.kind === 'normal') return { kind: 'on', model: this.currentModel?.id };
    return { kind: 'throttled', state };
  }

  refresh(): void {
    this.changed.fire();
  }

  /** Feeds the tier back-off with the usage snapshot: after each request, else at most every few seconds. */
  private readUsage(force: boolean): void {
    const now = Date.now();
    if (!this.usage || (!force && now - this.usageReadAt < USAGE_READ_EVERY_MS)) return;
    this.usageReadAt = now;
    try {
      const before = this.engine.backoff.state(now).kind;
      this.engine.backoff.observeUsage(this.usage(), now);
      if (this.engine.backoff.state(now).kind !== before) this.refresh();
    } catch (error) {
      this.deps.logger.warn('Inline completion: cannot read the usage meter', error);
    }
  }

  private hasApiKey(): Promise<boolean> {
    this.apiKey ??= this.deps.inference.isConfigured().then((c) => c.apiKey && c.baseUrl, () => false);
    return this.apiKey;
  }

  /** A pause ends by itself: show it when it does. */
  private scheduleResume(state: BackoffState): void {
    if (this.resumeTimer !== undefined) clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
    if (state.kind !== 'paused') return;
    this.resumeTimer = setTimeout(() => this.refresh(), Math.max(0, Math.min(state.resumesAt - Date.now(), 2 ** 31 - 1)) + 50);
  }

  /** Completions stopped (401/403/400/unknown model): one notification, the reason in the status bar. */
  private notifyStopped(): void {
    this.stopNotifications += 1;
    this.deps.logger.warn('Inline completion stopped', this.lastError);
    void showError(this.lastError, { log: this.deps.logChannel, prefix: vscode.l10n.t('Inline completion stopped.') });
    this.refresh();
  }

  dispose(): void {
    this.engineInstance?.engine.cancel();
    if (this.snoozeTimer !== undefined) clearInterval(this.snoozeTimer);
    if (this.resumeTimer !== undefined) clearTimeout(this.resumeTimer);
    for (const d of this.subscriptions) d.dispose();
  }
}

/** A cancellation (the user typed on) is no failure. */
function signalLike(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'cancelled';
}
