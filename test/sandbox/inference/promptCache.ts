import { shortHash } from '../core/ids';
import type { ChatRequest } from './chatRequest';

/**
 * The sandbox's prompt cache, as a serving engine's prefix cache behaves: a request whose leading
 * messages (with the same model and tools) match an earlier request's, with new messages after
 * them, is answered with those tokens reported as cached. Whole messages only, and a bounded memory of prefixes (oldest out).
 * Reported as `prompt_tokens_details.cached_tokens` in the production profile and as a top-level
 * `cached_tokens` in the contract profile (chat.ts), so clients see both shapes.
 */
export class PromptCache {
  private readonly seen = new Set<string>();

  constructor(private readonly capacity = 512) {}

  /** The prompt tokens an earlier request's prefix covers; remembers this request's prefixes. */
  lookup(request: ChatRequest): number {
    let key = shortHash(JSON.stringify([request.model.id, request.tools, request.toolChoice]), 32);
    const sizes = request.messages.map((m) => JSON.stringify(m).length);
    const total = sizes.reduce((a, b) => a + b, 0);
    let matched = 0;
    let stillMatching = true;
    request.messages.forEach((message, i) => {
      key = shortHash(`${key}|${JSON.stringify(message)}`, 32);
      if (stillMatching && this.seen.has(key)) matched += sizes[i] ?? 0;
      else stillMatching = false;
      this.remember(key);
    });
    // The same request again is a resend (a retry, another endpoint), not a later turn: nothing
    // cached, so identical requests keep identical answers.
    if (stillMatching || total === 0) return 0;
    return Math.floor((request.promptTokens * matched) / total);
  }

  clear(): void {
    this.seen.clear();
  }

  private remember(key: string): void {
    this.seen.delete(key);
    this.seen.add(key);
    if (this.seen.size > this.capacity) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }
}
