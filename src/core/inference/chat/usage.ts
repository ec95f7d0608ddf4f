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
  const cached = cachedTokensOf(value, prompt);
  if (cached !== undefined) usage.cachedTokens = cached;
  return usage;
}

/**
 * Prompt tokens the server answered from its prompt cache: `prompt_tokens_details.cached_tokens`
 * (the common shape) or a top-level `cached_tokens`. Ignored unless a whole number within the
 * prompt tokens (a cache cannot serve more of the prompt than there was).
 */
export function cachedTokensOf(value: Record<string, unknown>, promptTokens: number): number | undefined {
  const details = value.prompt_tokens_details;
  const raw = isRecord(details) && details.cached_tokens !== undefined && details.cached_tokens !== null ? details.cached_tokens : value.cached_tokens;
  return Number.isSafeInteger(raw) && (raw as number) >= 0 && (raw as number) <= promptTokens ? (raw as number) : undefined;
}
