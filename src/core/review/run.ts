import { CancelledError } from '../errors';
import type { InferenceClient } from '../inference/api';
import { parseFindings, type ReviewFinding } from './findings';
import { placeFindings, type PlacedFinding } from './placement';
import type { ReviewPlan } from './prompt';

/** What the answers of a review held, part by part. */
export interface ReviewResult {
  readonly findings: PlacedFinding[];
  readonly parts: number;
  /** Items of the answers that were not findings (a field missing or wrong). */
  readonly skipped: number;
  /** Findings given twice (in one answer or across parts): kept once. */
  readonly duplicates: number;
  /** Parts (1-based) whose answer held no JSON at all. */
  readonly unreadableParts: number[];
  /** Parts (1-based) whose answer was empty (a reasoning model that spent its room thinking, a server that sent nothing): not reviewed. */
  readonly emptyParts: number[];
  /** Parts (1-based) whose answer reached its token limit (it may miss findings). */
  readonly cutParts: number[];
}

export interface RunReviewOptions {
  readonly client: Pick<InferenceClient, 'chatStream'>;
  readonly model: string;
  readonly plan: ReviewPlan;
  readonly signal?: AbortSignal;
  /** Before each part is sent (1-based). */
  readonly onPart?: (part: number, parts: number) => void;
}

/**
 * Sends the plan's requests one after the other (metered as kind `review`, through the tier's
 * cap check like chat), reads the findings of each answer and places them on the diff. A failed
 * or cancelled request ends the review with its error: no half review is presented as whole.
 */
export async function runReview(options: RunReviewOptions): Promise<ReviewResult> {
  const { plan } = options;
  const found: ReviewFinding[] = [];
  let skipped = 0;
  let duplicates = 0;
  const unreadableParts: number[] = [];
  const emptyParts: number[] = [];
  const cutParts: number[] = [];
  for (const [k, request] of plan.requests.entries()) {
    if (options.signal?.aborted) throw new CancelledError('The review was cancelled');
    options.onPart?.(k + 1, plan.requests.length);
    const result = await options.client
      .chatStream({ model: options.model, messages: request.messages, max_tokens: request.maxTokens, temperature: 0.1 }, { ...(options.signal ? { signal: options.signal } : {}), purpose: 'review' })
      .consume(() => undefined);
    const parsed = parseFindings(result.text);
    found.push(...parsed.findings);
    skipped += parsed.skipped;
    duplicates += parsed.duplicates;
    if (result.text.trim() === '') emptyParts.push(k + 1);
    else if (parsed.unreadable) unreadableParts.push(k + 1);
    if (result.finishReason === 'length') cutParts.push(k + 1);
  }
  const placed = placeFindings(found, plan.index);
  return { findings: placed.placed, parts: plan.requests.length, skipped, duplicates: duplicates + placed.duplicates, unreadableParts, emptyParts, cutParts };
}
