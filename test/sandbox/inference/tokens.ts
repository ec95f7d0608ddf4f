/**
 * Deterministic token estimate used everywhere in the sandbox: tokens(text) = ceil(chars / 4),
 * where chars counts UTF-16 code units. Chat prompts: see promptTokens() in chat/validate.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Tokens charged per message on top of its text (role and separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens charged per image content part. */
export const IMAGE_TOKENS = 85;

/** Lower-cased words (letters and digits) for lexical rerank and hashed embeddings. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A light normalisation so "machines" matches "machine". */
export function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}
