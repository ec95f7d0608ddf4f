/** Compaction of a conversation that would not fit the model's context: planner, summary request, summary store. */
export { planCompaction, completeSummary, type CompactionBudget, type CompactionOptions, type CompactionPlan, type PendingSummary } from './planner';
export { buildSummaryRequest, summaryMaxTokens, SUMMARY_INSTRUCTION, type SummaryRequest } from './summary';
export { MemorySummaryStore, type SummaryRecord, type SummaryStore } from './store';
export { layout, fingerprint, type Layout, type Unit } from './units';
