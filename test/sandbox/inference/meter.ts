import type { Clock } from '../core/clock';
import type { SandboxProfile, Tier } from '../types';

export const TIER_1: Tier = { outputTokensPerHour: 150_000, outputTokensPerDay: 3_600_000 };

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Output-token metering for the tier. Windows are fixed and aligned to the (sandbox) clock: the
 * current UTC hour and the current UTC day. Headers on every inference response:
 * - X-RateLimit-Limit-Requests: the tier's output tokens per hour;
 * - X-RateLimit-Remaining-Requests: output tokens left, min(hour left, day left), never < 0;
 * - X-RateLimit-Reset-Requests: when the binding window resets. Contract profile: seconds from
 *   now (delta); production profile: Unix time in seconds.
 * The names say "Requests" but the contract computes limits on output tokens, so the sandbox
 * reports the output-token budget in them.
 */
export class OutputTokenMeter {
  private hourStart = 0;
  private dayStart = 0;
  private hourUsed = 0;
  private dayUsed = 0;

  constructor(
    private readonly clock: Clock,
    public tier: Tier,
  ) {}

  private roll(): void {
    const now = this.clock.now();
    const hourStart = now - (now % HOUR_MS);
    const dayStart = now - (now % DAY_MS);
    if (hourStart !== this.hourStart) {
      this.hourStart = hourStart;
      this.hourUsed = 0;
    }
    if (dayStart !== this.dayStart) {
      this.dayStart = dayStart;
      this.dayUsed = 0;
    }
  }

  consume(tokens: number): void {
    this.roll();
    this.hourUsed += tokens;
    this.dayUsed += tokens;
  }

  reset(tier: Tier): void {
    this.tier = tier;
    this.hourUsed = 0;
    this.dayUsed = 0;
  }

  used(): { hour: number; day: number } {
    this.roll();
    return { hour: this.hourUsed, day: this.dayUsed };
  }

  remaining(): number {
    this.roll();
    return Math.max(0, Math.min(this.tier.outputTokensPerHour - this.hourUsed, this.tier.outputTokensPerDay - this.dayUsed));
  }

  exhausted(): boolean {
    return this.remaining() <= 0;
  }

  /** Epoch ms when the binding window resets. */
  resetAt(): number {
    this.roll();
    const dayExhausted = this.dayUsed >= this.tier.outputTokensPerDay;
    return dayExhausted ? this.dayStart + DAY_MS : this.hourStart + HOUR_MS;
  }

  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.resetAt() - this.clock.now()) / 1000));
  }

  headers(profile: SandboxProfile): Record<string, string> {
    const resetAt = this.resetAt();
    const reset = profile === 'production' ? Math.ceil(resetAt / 1000) : Math.max(0, Math.ceil((resetAt - this.clock.now()) / 1000));
    return {
      'X-RateLimit-Limit-Requests': String(this.tier.outputTokensPerHour),
      'X-RateLimit-Remaining-Requests': String(this.remaining()),
      'X-RateLimit-Reset-Requests': String(reset),
    };
  }
}
