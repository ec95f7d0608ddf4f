/**
 * The price of a job sent now (one request at a time, standard rates) against the same job as a
 * batch (half the standard rate: the inference contract's "Asynchronous batch" lines), from the
 * tokens it would use: prompts estimated before sending, generated tokens at most `max_tokens`.
 */
import { estimateMessageTokens } from '../inference/models/tokens';
import type { ChatMessage } from '../inference/chat/types';
import { DEFAULT_MAX_TOKENS, RATES } from './rates';

const perMillion = (eur: number): number => eur / 1_000_000;

/** EUR per token of batch work (contract: input 0.90, output 4.00 per million). */
export const BATCH_EUR_PER_TOKEN = { input: perMillion(0.9), output: perMillion(4) } as const;

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
