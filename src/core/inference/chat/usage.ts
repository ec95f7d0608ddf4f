import { isRecord, num } from '../../json';
import type { Usage } from './types';

/** Normalises a `usage` object; `reasoning_tokens` may sit at the top or in completion details. */
export function parseUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = num(value.prompt_tokens) ?? 0;
  const completion = num(value.completion_tokens) ?? 0;
  const usage: Usage = {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: num(value.total_tokens) ?? prompt + completion,
  };
  const details = value.completion_tokens_details;
  const reasoning =
    num(value.reasoning_tokens) ?? (isRecord(details) ? num(details.reasoning_tokens) : undefined);
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}
