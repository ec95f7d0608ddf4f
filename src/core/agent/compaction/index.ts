/** Compaction of a conversation that would not fit the model's context: elision, planner, summary request, summary store. */
export { planCompaction, completeSummary, ELISION_TARGET, SUMMARY_TARGET, type CompactionBudget, type CompactionOptions, type CompactionPlan, type PendingSummary } from './planner';
export { compactToFit, type CompactDeps, type CompactOptions, type CompactOutcome, type SendPlan } from './compact';
export { elideResult, elisionCandidates, ELIDED_HEAD_CHARS, ELIDE_MIN_CHARS } from './elide';
export { buildSummaryRequest, summaryMaxTokens, SUMMARY_INSTRUCTION, type SummaryRequest } from './summary';
export { summaryProblem, type SummaryAnswer, type SummaryProblem } from './answer';
export { MemorySummaryStore, type SummaryRecord, type SummaryStore } from './store';
export { layout, fingerprint, type Layout, type Unit } from './units';
