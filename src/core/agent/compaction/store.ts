/**
 * Summaries kept per conversation, so a summary is computed once and reused by every later request
 * of the conversation (the planner applies the largest stored one that still matches), never
 * recomputed per turn. The feature may back this with memory (per chat session) or workspace state.
 */

export interface SummaryRecord {
  /** Fingerprints of the units the summary replaces (see units.ts). */
  readonly covered: readonly string[];
  readonly summary: string;
  /** How many messages it replaces (for "Summarised 14 earlier messages"). */
  readonly messages: number;
}

export interface SummaryStore {
  get(conversationId: string): readonly SummaryRecord[];
  put(conversationId: string, record: SummaryRecord): void;
}

/** In memory: the newest `perConversation` records of the newest `conversations` conversations. */
export class MemorySummaryStore implements SummaryStore {
  private readonly records = new Map<string, SummaryRecord[]>();

  constructor(
    private readonly perConversation = 4,
    private readonly conversations = 64,
  ) {}

  get(conversationId: string): readonly SummaryRecord[] {
    return this.records.get(conversationId) ?? [];
  }

  put(conversationId: string, record: SummaryRecord): void {
    const list = [...(this.records.get(conversationId) ?? []), record].slice(-this.perConversation);
    this.records.delete(conversationId);
    this.records.set(conversationId, list);
    while (this.records.size > this.conversations) {
      const oldest = this.records.keys().next().value;
      if (oldest === undefined) break;
      this.records.delete(oldest);
    }
  }
}
