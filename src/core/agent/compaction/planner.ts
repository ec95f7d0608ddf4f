import { CHARS_PER_TOKEN, estimateMessageTokens, estimateTextTokens, type ChatMessage, type ToolMessage } from '../../inference/index';
import { buildSummaryRequest, summaryMaxTokens, type SummaryRequest } from './summary';
import type { SummaryRecord } from './store';
import { layout, type Unit } from './units';

/**
 * Compaction instead of silent truncation. Before each request (every round of a turn) the caller
 * asks `planCompaction` with the full conversation and the conversation's stored summaries:
 *  - a stored summary still matches units of it (and the view then fits): send the compacted
 *    view, always, even when the whole would fit, so the view is stable from request to request
 *    (no model call: a summary is computed once and reused by every later request);
 *  - no stored summary and it fits: send it as is;
 *  - otherwise: one summary request (the stored summary, if any, merged with the next units in
 *    policy order, see units.ts) until the view fits in three quarters of the room, leaving
 *    headroom so the next rounds do not summarise again at once. The caller sends it, stores
 *    `completeSummary(...)` and plans again.
 * The compacted view appends the summary to the leading system message. If even the pinned part
 * does not fit, the latest round's tool results are cut in their middle; only a latest user message
 * larger than the context is 'too-large' (a clear error instead of a context-length 400).
 */

export interface CompactionBudget {
  /** The model's `max_model_len`. */
  readonly maxModelLen: number;
  /** estimateToolsTokens(tools) of the tool definitions sent with the request. */
  readonly toolsTokens: number;
  /** Room kept for the answer (the request's max_tokens). */
  readonly reserveTokens: number;
}

export interface CompactionOptions {
  /** The conversation's stored summaries (SummaryStore.get). */
  readonly summaries?: readonly SummaryRecord[];
  /** `/compact`: summarise every unit not yet summarised, even if it fits. */
  readonly force?: boolean;
}

export interface PendingSummary {
  readonly covered: readonly string[];
  readonly messages: number;
}

export type CompactionPlan =
  | {
      readonly action: 'send';
      readonly messages: ChatMessage[];
      readonly promptTokens: number;
      /** Messages replaced by a summary (0: none), for "Summarised N earlier messages". */
      readonly summarisedMessages: number;
      readonly summary?: string;
      /** Tool results of the latest round that had to be cut to fit. */
      readonly cutResults: number;
    }
  | { readonly action: 'summarise'; readonly request: SummaryRequest; readonly pending: PendingSummary }
  | { readonly action: 'too-large'; readonly promptTokens: number; readonly limit: number };

const SUMMARY_HEADER = (n: number): string => `Summary of ${n} earlier message${n === 1 ? '' : 's'} of this conversation (tool calls and results, and earlier turns), made to fit the model's context:`;

/** The conversation with `removed` units left out and the summary appended to the leading system message. */
function view(messages: readonly ChatMessage[], removed: readonly Unit[], summary: string | undefined, count: number): ChatMessage[] {
  const gone = new Set(removed.flatMap((u) => u.indices));
  const kept = messages.filter((_, i) => !gone.has(i));
  if (summary === undefined) return kept;
  const section = `<conversation-summary>\n${SUMMARY_HEADER(count)}\n${summary}\n</conversation-summary>`;
  const first = kept[0];
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${section}` }, ...kept.slice(1)];
  return [{ role: 'system', content: section }, ...kept];
}

function total(messages: readonly ChatMessage[]): number {
  return messages.reduce((a, m) => a + estimateMessageTokens(m), 0);
}

/** The stored record covering the most units, all of them present in `units`. */
function bestRecord(units: readonly Unit[], records: readonly SummaryRecord[]): { record: SummaryRecord; covered: Unit[] } | undefined {
  let best: { record: SummaryRecord; covered: Unit[] } | undefined;
  for (const record of records) {
    const pool = [...units];
    const covered: Unit[] = [];
    let ok = true;
    for (const fp of record.covered) {
      const at = pool.findIndex((u) => u.fingerprint === fp);
      if (at < 0) {
        ok = false;
        break;
      }
      covered.push(...pool.splice(at, 1));
    }
    if (ok && covered.length > 0 && (!best || covered.length > best.covered.length)) best = { record, covered };
  }
  return best;
}

/** Cuts the latest round's tool results (largest first, evenly) until the view fits `limit`. */
function cutLatestResults(messages: ChatMessage[], limit: number): { messages: ChatMessage[]; cut: number } {
  let over = total(messages) - limit;
  if (over <= 0) return { messages, cut: 0 };
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  const results: Array<{ m: ToolMessage; i: number }> = [];
  messages.forEach((m, i) => {
    if (i > lastUser && m.role === 'tool') results.push({ m, i });
  });
  const out = [...messages];
  let cut = 0;
  for (const { m, i } of results.sort((a, b) => b.m.content.length - a.m.content.length)) {
    if (over <= 0) break;
    const removable = Math.max(0, estimateTextTokens(m.content) - 64);
    const take = Math.min(removable, over + 16);
    if (take <= 0) continue;
    const keep = Math.max(0, m.content.length - take * CHARS_PER_TOKEN - 120);
    const mark = `\n[... ${(m.content.length - keep).toLocaleString('en')} characters of this result cut to fit the model's context ...]\n`;
    const content = `${m.content.slice(0, Math.ceil(keep / 2))}${mark}${m.content.slice(m.content.length - Math.floor(keep / 2))}`;
    over -= estimateMessageTokens(m) - estimateMessageTokens({ ...m, content });
    out[i] = { ...m, content };
    cut++;
  }
  return { messages: out, cut };
}

export function planCompaction(messages: readonly ChatMessage[], budget: CompactionBudget, options: CompactionOptions = {}): CompactionPlan {
  const limit = budget.maxModelLen - Math.max(0, budget.toolsTokens) - Math.max(0, budget.reserveTokens);
  const sizes = messages.map(estimateMessageTokens);
  const whole = sizes.reduce((a, b) => a + b, 0);
  const { units } = layout(messages, sizes);
  const best = bestRecord(units, options.summaries ?? []);
  const covered = best?.covered ?? [];
  const send = (removed: readonly Unit[], summary: string | undefined, count: number): CompactionPlan => {
    const fitted = cutLatestResults(view(messages, removed, summary, count), limit);
    const promptTokens = total(fitted.messages);
    if (promptTokens > limit) return { action: 'too-large', promptTokens, limit };
    return { action: 'send', messages: fitted.messages, promptTokens, summarisedMessages: count, ...(summary !== undefined ? { summary } : {}), cutResults: fitted.cut };
  };
  // A matching stored summary is always applied, so the view stays the same from request to request.
  if (!best && !options.force && whole <= limit) return { action: 'send', messages: [...messages], promptTokens: whole, summarisedMessages: 0, cutResults: 0 };
  const coveredCount = covered.reduce((a, u) => a + u.indices.length, 0);
  const rest = units.filter((u) => !covered.includes(u));
  if (best && !options.force && total(view(messages, covered, best.record.summary, coveredCount)) <= limit) return send(covered, best.record.summary, coveredCount);
  if (rest.length === 0) return best ? send(covered, best.record.summary, coveredCount) : send([], undefined, 0);

  // Choose the next units until the view, with a summary of the longest size asked for, fits in 3/4 of the room.
  const placeholder = 'x'.repeat(summaryMaxTokens(budget.maxModelLen) * CHARS_PER_TOKEN);
  const target = Math.floor(limit * 0.75);
  const chosen: Unit[] = [];
  for (const unit of rest) {
    chosen.push(unit);
    if (options.force) continue;
    const removed = [...covered, ...chosen];
    if (total(view(messages, removed, placeholder, 0)) <= target) break;
  }
  const replaced = chosen.flatMap((u) => u.indices).sort((a, b) => a - b).map((i) => messages[i] as ChatMessage);
  return {
    action: 'summarise',
    request: buildSummaryRequest(best?.record.summary, replaced, budget.maxModelLen),
    pending: { covered: [...(best?.record.covered ?? []), ...chosen.map((u) => u.fingerprint)], messages: coveredCount + replaced.length },
  };
}

/** The record to store once the summary request answered; the answer is capped to the size asked for. */
export function completeSummary(pending: PendingSummary, answer: string, maxModelLen: number): SummaryRecord {
  const maxChars = summaryMaxTokens(maxModelLen) * CHARS_PER_TOKEN;
  const text = answer.trim();
  return { covered: pending.covered, messages: pending.messages, summary: text.length > maxChars ? `${text.slice(0, maxChars - 20)}\n[summary cut]` : text };
}
