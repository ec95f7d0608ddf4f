// Next edit suggestions (issue 33), pure: the VS Code side (decorations, Tab to jump and accept) adapts it.
export { EditHistory, DEFAULT_HISTORY_LIMITS, type DocumentChange, type HistoryLimits, type RecordedEdit } from './editHistory';
export { renderEdits, MAX_HUNK_LINES, type RenderOptions } from './renderEdits';
export { editWindow, markedWindow, linesAround, CURSOR_MARKER, DEFAULT_WINDOW, type EditWindow, type WindowLimits } from './window';
export { buildNextEditPrompt, NEXT_EDIT_SYSTEM, type NextEditPrompt, type NextEditPromptInput } from './prompt';
export { parseAnswer, WINDOW_CLOSE, WINDOW_OPEN, type AnswerOptions } from './answer';
export { diffText } from './diff';
export { copiesOutside, isStale, rejection, undoes, type DocumentState, type RejectReason } from './rules';
export { toSuggestion, windowEdits, type NextEditDocument, type NextEditSuggestion, type SuggestedEdit } from './suggestion';
export { applyEdits, positionAt, type LinePosition, type OffsetEdit } from './text';
export { NextEditEngine, DEFAULT_IDLE_MS, type NextEditContext, type NextEditEngineOptions, type NextEditResult, type NextEditStats, type NoSuggestion } from './engine';
