// Inline (ghost-text) completion, pure: the VS Code provider in src/features adapts it.
export { decideMode, type CompletionMode } from './mode';
export { cutAtBlockEnd, type Cut } from './blockEnd';
export { EarlyStop, type StopReason } from './earlyStop';
export { postProcess, type PostProcessInput } from './postProcess';
export { buildPrompt, CURSOR_MARKER, type BuiltPrompt, type ContextSnippet, type PromptBudget, type PromptInput } from './prompt';
export { definitionIn, definitionPattern, identifiersNearCursor } from './definitions';
export { LruCache, typeAhead, type ShownSuggestion } from './cache';
export { DebounceScheduler, DEFAULT_DEBOUNCE_MS, type SchedulerTimers, type Scheduled } from './debounce';
export { InflightRequest, ReceivedSuggestions, type Anchor } from './speculation';
export { isPausePoint, TriggerPolicy, type TriggerDecision, type TriggerKind } from './trigger';
export { TierBackoff, usageState, type Admission, type BackoffState } from './backoff';
export {
  InlineCompletionEngine,
  type CompleteFn,
  type CompletionContext,
  type CompletionStreamLike,
  type DocumentSnapshot,
  type EngineStats,
  type InlineCompletionEngineOptions,
  type InlineItem,
  type ProvideOptions,
} from './engine';
export { LONG_PAUSE_MS, PauseBudget, type BudgetClient, type BudgetStats, type BudgetTicket } from './pauseBudget';
