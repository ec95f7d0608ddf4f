/**
 * The price of a job sent now (one request at a time, standard rates) against the same job as a
 * batch (half the standard rate: the inference contract's "Asynchronous batch" lines), from the
 * tokens it would use: prompts estimated before sending, generated tokens at most `max_tokens`.
 */
import { answerText } from '../inference/batch/promptOverFiles';
import { parseUsage } from '../inference/chat/usage';
import { estimateMessageTokens, estimateTextTokens } from '../inference/models/tokens';
import type { ChatMessage } from '../inference/chat/types';
import type { UsageEvent } from './events';
import { DEFAULT_MAX_TOKENS, RATES } from './rates';

/** EUR per token of batch work (contract: input 0.90, output 4.00 per million): the rates table's batch lines. */
export const BATCH_EUR_PER_TOKEN = { input: RATES.batchInput.eurPerUnit, output: RATES.batchOutput.eurPerUnit } as const;

export interface JobTokens {
  /** Prompt tokens of every request (embedding inputs included). */
  inputTokens: number;
  /** Generated tokens at most (the sum of each request's max_tokens). */
  outputTokens: number;
}

export interface JobCostEstimate extends JobTokens {
  /** EUR sent now, at the standard rates. */
  standardEur: number;
  /** EUR as a batch, at the batch rates. */
  batchEur: number;
  /** What the batch saves. */
  savedEur: number;
}

/** Adds one chat request's tokens to `into` (its messages, and its `max_tokens` or the server default). */
export function addChatRequestTokens(into: JobTokens, body: { messages: readonly ChatMessage[]; max_tokens?: number | undefined }): JobTokens {
  let prompt = 0;
  for (const m of body.messages) prompt += estimateMessageTokens(m);
  const max = body.max_tokens !== undefined && Number.isFinite(body.max_tokens) && body.max_tokens > 0 ? body.max_tokens : DEFAULT_MAX_TOKENS;
  into.inputTokens += prompt;
  into.outputTokens += max;
  return into;
}

/** Both prices of a job of `tokens`. */
export function estimateJobCost(tokens: JobTokens): JobCostEstimate {
  const input = Math.max(0, tokens.inputTokens);
  const output = Math.max(0, tokens.outputTokens);
  const standardEur = input * RATES.input.eurPerUnit + output * RATES.output.eurPerUnit;
  const batchEur = input * BATCH_EUR_PER_TOKEN.input + output * BATCH_EUR_PER_TOKEN.output;
  return { inputTokens: input, outputTokens: output, standardEur, batchEur, savedEur: standardEur - batchEur };
}

/**
 * The usage of a batch's results, summed as they are read (the `usage` of each answered line):
 * one `batch` event for the meter. An answer without `usage` is estimated (its prompt from the
 * job's estimate, its output from its text) and the event marked so. Failed lines bill nothing.
 */
export class BatchUsageTally {
  requests = 0;
  promptTokens = 0;
  completionTokens = 0;
  estimated = false;

  /** `estimatedPrompt`: the prompt tokens of one request, from the job's estimate. */
  constructor(private readonly estimatedPrompt: number) {}

  add(body: unknown): void {
    const usage = typeof body === 'object' && body !== null ? parseUsage((body as { usage?: unknown }).usage) : undefined;
    this.requests += 1;
    if (usage && Number.isFinite(usage.promptTokens) && Number.isFinite(usage.completionTokens)) {
      this.promptTokens += Math.max(0, usage.promptTokens);
      this.completionTokens += Math.max(0, usage.completionTokens);
      return;
    }
    this.estimated = true;
    this.promptTokens += Math.max(0, Math.round(this.estimatedPrompt));
    this.completionTokens += estimateTextTokens(answerText(body) ?? '');
  }

  /** The event to record, or undefined when nothing was answered. */
  event(model: string, at: number): UsageEvent | undefined {
    if (this.requests === 0) return undefined;
    return { kind: 'batch', at, model, requests: this.requests, promptTokens: this.promptTokens, completionTokens: this.completionTokens, estimated: this.estimated };
  }
}
