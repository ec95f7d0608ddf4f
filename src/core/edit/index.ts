/** Edit by instruction: the streamed rewrite as a live diff, its prompt and budget, the command's arguments, the lines it works on as they follow the document. */
export { EditLineFilter } from './lineFilter';
export { StreamingLineDiff, similar, type DiffStep, type Hunk } from './lineDiff';
export { EditSession, type Decorations, type HunkDecision, type HunkView, type RowEdit, type RowSpan } from './editSession';
export { buildEditPrompt, estimateEditCostEur, rewriteBudget, DEFAULT_CONTEXT_TOKENS, MAX_CONTEXT_LINES, SYSTEM_PROMPT, type EditDiagnostic, type EditPrompt, type EditPromptInput } from './prompt';
export { parseEditArgs, MAX_INSTRUCTION_CHARS, type EditArgs, type EditPosition } from './args';
export { readHistory, rememberInstruction } from './history';
export { streamEdit, type StreamEditOptions, type StreamEditResult } from './run';
export { lineBreaks, moveLines, moveLinesSince, moveLinesThrough, type LineSpan, type TextChange, type TextPosition, type VersionedChanges } from './anchoredLines';
