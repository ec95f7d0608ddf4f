import { CHARS_PER_TOKEN, estimateMessageTokens, estimateTextTokens, type ChatMessage, type ToolMessage } from '../../inference/index';
import { buildSummaryRequest, summaryMaxTokens, type SummaryRequest } from './summary';
import type { SummaryRecord } from './store';
import { elideResult, elisionCandidates } from './elide';
import { layout, type Unit } from './units';

/**
 * Compaction instead of silent truncation. Before each request (every round of a turn) the caller
 * asks `planCompaction` with the full conversation and the conversation's stored summaries. In
 * order, cheapest first:
 *  1. the view (the conversation, with the stored summary that matches it applied, if any) fits:
 *     send it. A matching summary is always applied, so the view stays stable from request to
 *     request (a summary is computed once and reused by every later request, never per turn);
 *  2. it does not fit: the latest round's results are cut to at most half the room if larger, and
 *     old tool results are elided (elide.ts), oldest first, until the view fits in three quarters
 *     of the room the latest round leaves (headroom, so the next rounds do not elide again at
 *     once); no model request;
 *  3. even with every old result elided it does not fit: one summary request (the stored summary,
 *     if any, merged with the next units in policy order, see units.ts) until the view, the units
 *     left elided, fits in half the room the latest round leaves: a big step, so summaries stay
 *     rare. The caller sends it, stores `completeSummary(...)` and plans again.
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
  /**
   * No summary could be made (its answer was cut or empty): where step 3 would ask for one, the
   * units it would replace are left out of this request's view with a note saying so instead.
   * Nothing is stored, so a later request asks again.
   */
  readonly leaveOut?: boolean;
}

export interface PendingSummary {
  readonly covered: readonly string[];
  readonly messages: number;
  /** The summary's size asked for (default: summaryMaxTokens of the context). */
  readonly maxTokens?: number;
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
      /** Old tool results elided (shortened) in the view. */
      readonly elidedResults: number;
      /** Messages left out of the view without a summary (`leaveOut`), when any. */
      readonly leftOutMessages?: number;
    }
  | { readonly action: 'summarise'; readonly request: SummaryRequest; readonly pending: PendingSummary }
  | { readonly action: 'too-large'; readonly promptTokens: number; readonly limit: number };

const SUMMARY_HEADER = (n: number): string => `Summary of ${n} earlier message${n === 1 ? '' : 's'} of this conversation (tool calls and results, and earlier turns), made to fit the model's context:`;
const LEFT_OUT_NOTE = (n: number): string => `${n} earlier message${n === 1 ? ' was' : 's were'} left out of this conversation to fit the model's context (no summary of them could be made).`;

/** Share of the room elision brings the view down to, and a summary (step 3) brings it down to. */
export const ELISION_TARGET = 0.75;
export const SUMMARY_TARGET = 0.5;
/** Most of the room the latest round's results take when the conversation does not fit whole. */
export const LATEST_ROUND_SHARE = 0.5;

/**
 * The conversation with `removed` units left out, the results at `elided` indices shortened, and
 * the summary appended to the leading system message.
 */
function view(messages: readonly ChatMessage[], removed: readonly Unit[], summary: string | undefined, count: number, elided: ReadonlySet<number> = new Set(), leftOut = 0): ChatMessage[] {
  const gone = new Set(removed.flatMap((u) => u.indices));
  const kept = messages.flatMap((m, i) => (gone.has(i) ? [] : [m.role === 'tool' && elided.has(i) ? elideResult(m) : m]));
  const parts = [...(summary !== undefined ? [`${SUMMARY_HEADER(count)}\n${summary}`] : []), ...(leftOut > 0 ? [LEFT_OUT_NOTE(leftOut)] : [])];
  if (parts.length === 0) return kept;
  const section = `<conversation-summary>\n${parts.join('\n\n')}\n</conversation-summary>`;
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

/** Cuts the results at `indices` in their middle (largest first, evenly) until `over` tokens are saved. */
function cutResults(messages: readonly ChatMessage[], indices: readonly number[], over: number): { messages: ChatMessage[]; cut: number } {
  const out = [...messages];
  let cut = 0;
  const results = indices.flatMap((i) => {
    const m = messages[i];
    return m?.role === 'tool' ? [{ m, i }] : [];
  });
  for (const { m, i } of results.sort((a, b) => b.m.content.length - a.m.content.length)) {
    if (over <= 0) break;
    const removable = Math.max(0, estimateTextTokens(m.content) - 64);
    const take = Math.min(removable, over + 16);
    if (take <= 0) continue;
    const keep = Math.max(0, m.content.length - take * CHARS_PER_TOKEN - 120);
    const mark = `\n[... ${(m.content.length - keep).toLocaleString('en')} characters of this result cut to fit the model's context ...]\n`;
    const content = `${m.content.slice(0, Math.ceil(keep / 2))}${mark}${m.content.slice(m.content.length - Math.floor(keep / 2))}`;
    over -= estimateMessageTokens(m) - estimateMessageTokens({ ...m, content });
    out[i] = { ...m, content } satisfies ToolMessage;
    cut++;
  }
  return { messages: out, cut };
}

/** Cuts the latest round's tool results (after the last user message) until the view fits `limit`. */
function cutLatestResults(messages: ChatMessage[], limit: number): { messages: ChatMessage[]; cut: number } {
  const over = total(messages) - limit;
  if (over <= 0) return { messages, cut: 0 };
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  return cutResults(messages, messages.flatMap((m, i) => (i > lastUser && m.role === 'tool' ? [i] : [])), over);
}

export function planCompaction(original: readonly ChatMessage[], budget: CompactionBudget, options: CompactionOptions = {}): CompactionPlan {
  const limit = budget.maxModelLen - Math.max(0, budget.toolsTokens) - Math.max(0, budget.reserveTokens);
  const sizes = original.map(estimateMessageTokens);
  const whole = sizes.reduce((a, b) => a + b, 0);
  // The common case, before any work: nothing stored for the conversation and it fits as it is.
  if ((options.summaries ?? []).length === 0 && !options.force && whole <= limit) {
    return { action: 'send', messages: [...original], promptTokens: whole, summarisedMessages: 0, cutResults: 0, elidedResults: 0 };
  }
  const { units, latestRound } = layout(original, sizes);
  const best = bestRecord(units, options.summaries ?? []);
  const covered = best?.covered ?? [];
  const coveredCount = covered.reduce((a, u) => a + u.indices.length, 0);
  const rest = units.filter((u) => !covered.includes(u));
  const candidates = elisionCandidates(original, rest);
  // The latest round's results, if they alone take more than their share of the room, are cut to it
  // first when the conversation does not fit: otherwise they would crowd out everything else, and
  // every round would ask for a summary. (Whole when everything fits.)
  let messages: readonly ChatMessage[] = original;
  let precut = 0;
  const latestTokens = latestRound.reduce((a, i) => a + (original[i]?.role === 'tool' ? (sizes[i] ?? 0) : 0), 0);
  const latestCap = Math.floor(limit * LATEST_ROUND_SHARE);
  if (latestTokens > latestCap && !options.force && total(view(original, covered, best?.record.summary, coveredCount)) > limit) {
    const capped = cutResults(original, latestRound, latestTokens - latestCap);
    messages = capped.messages;
    precut = capped.cut;
  }
  // Targets are shares of the room the latest round leaves: it is sent whatever the step.
  const latestNow = latestRound.reduce((a, i) => a + estimateMessageTokens(messages[i] as ChatMessage), 0);
  const targetOf = (share: number): number => Math.floor(latestNow + (limit - latestNow) * share);
  const send = (removed: readonly Unit[], summary: string | undefined, count: number, elided: ReadonlySet<number> = new Set(), leftOut = 0): CompactionPlan => {
    const fitted = cutLatestResults(view(messages, removed, summary, count, elided, leftOut), limit);
    const promptTokens = total(fitted.messages);
    if (promptTokens > limit) return { action: 'too-large', promptTokens, limit };
    return {
      action: 'send',
      messages: fitted.messages,
      promptTokens,
      summarisedMessages: count,
      ...(summary !== undefined ? { summary } : {}),
      cutResults: Math.max(precut, fitted.cut),
      elidedResults: elided.size,
      ...(leftOut > 0 ? { leftOutMessages: leftOut } : {}),
    };
  };

  if (!options.force) {
    // 1. The view as it is (a matching stored summary always applied, so it stays stable).
    if (total(view(messages, covered, best?.record.summary, coveredCount)) <= limit) return send(covered, best?.record.summary, coveredCount);
    // 2. Elide old tool results, oldest first, down to the elision target (no model request).
    const target = targetOf(ELISION_TARGET);
    const elided = new Set<number>();
    for (const i of candidates) {
      elided.add(i);
      if (total(view(messages, covered, best?.record.summary, coveredCount, elided)) <= target) break;
    }
    if (total(view(messages, covered, best?.record.summary, coveredCount, elided)) <= limit) return send(covered, best?.record.summary, coveredCount, elided);
  }
  if (rest.length === 0) return send(covered, best?.record.summary, coveredCount, new Set(candidates));

  // 3. Summarise the next units until the view, with a summary of the longest size asked for and the
  // units left elided, fits in the summary target (with `leaveOut`: the stored summary, if any,
  // and a note that they were left out).
  const summaryTokens = summaryMaxTokens(budget.maxModelLen, limit);
  const placeholder = options.leaveOut ? best?.record.summary : 'x'.repeat(summaryTokens * CHARS_PER_TOKEN);
  const target = targetOf(SUMMARY_TARGET);
  const allElided = new Set(candidates);
  const chosen: Unit[] = [];
  const count = (units: readonly Unit[]): number => units.reduce((a, u) => a + u.indices.length, 0);
  for (const unit of rest) {
    chosen.push(unit);
    if (options.force) continue;
    if (total(view(messages, [...covered, ...chosen], placeholder, coveredCount, allElided, options.leaveOut ? count(chosen) : 0)) <= target) break;
  }
  if (options.leaveOut) return send([...covered, ...chosen], best?.record.summary, coveredCount, allElided, count(chosen));
  const replaced = chosen.flatMap((u) => u.indices).sort((a, b) => a - b).map((i) => original[i] as ChatMessage);
  return {
    action: 'summarise',
    request: buildSummaryRequest(best?.record.summary, replaced, budget.maxModelLen, summaryTokens),
    pending: { covered: [...(best?.record.covered ?? []), ...chosen.map((u) => u.fingerprint)], messages: coveredCount + replaced.length, maxTokens: summaryTokens },
  };
}

/** The record to store once the summary request answered; the answer is capped to the size asked for. */
export function completeSummary(pending: PendingSummary, answer: string, maxModelLen: number): SummaryRecord {
  const maxChars = (pending.maxTokens ?? summaryMaxTokens(maxModelLen)) * CHARS_PER_TOKEN;
  const text = answer.trim();
  return { covered: pending.covered, messages: pending.messages, summary: text.length > maxChars ? `${text.slice(0, maxChars - 20)}\n[summary cut]` : text };
}
