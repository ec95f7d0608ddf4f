import { FenceStripper } from '../inference/completions/fenceStripper';
import { cutAtBlockEnd } from './blockEnd';
import { stripChatter } from './chatter';
import type { CompletionMode } from './mode';

/** Why the stream may stop being read. */
export type StopReason = 'lineBreak' | 'blockClosed' | 'maxTokens';

/**
 * Fed the streamed deltas of a suggestion, says as soon as it is decided, so the caller aborts
 * the request (the server stops generating): at the first line break in single-line mode, once
 * the block (or doc comment) closed in multi-line mode (see cutAtBlockEnd), or after `maxTokens`
 * deltas (a delta is about a token). A chatter first line is dropped (stripChatter), then fences
 * are removed on the way by FenceStripper; since it
 * holds back a trailing line break (it may precede a closing fence), a held-back line break
 * counts as arrived for the decision.
 */
export class EarlyStop {
  private readonly fences = new FenceStripper();
  private raw = '';
  /** The first line, held until complete: it may be chatter ("Here is the code:"). */
  private firstLine: string | undefined = '';
  private visible = '';
  private deltas = 0;
  private reason: StopReason | undefined;

  constructor(
    private readonly mode: CompletionMode,
    private readonly linePrefix: string,
    private readonly maxTokens: number,
  ) {}

  /** Feeds one delta; returns the stop reason once the suggestion is decided. */
  push(delta: string): StopReason | undefined {
    if (this.reason || delta === '') return this.reason;
    this.raw += delta;
    this.deltas += 1;
    if (this.firstLine !== undefined) {
      this.firstLine += delta;
      if (this.firstLine.includes('\n')) this.releaseFirstLine();
    } else this.visible += this.fences.push(delta);
    if (this.firstLine === undefined && cutAtBlockEnd(this.candidate(), this.mode, this.linePrefix).closed) {
      this.reason = this.mode.kind === 'single' ? 'lineBreak' : 'blockClosed';
    } else if (this.deltas >= this.maxTokens) this.reason = 'maxTokens';
    return this.reason;
  }

  get stopReason(): StopReason | undefined {
    return this.reason;
  }

  /** Everything received, fences removed (the stream ended or was stopped). */
  text(): string {
    if (this.firstLine !== undefined) this.releaseFirstLine();
    return this.reason ? this.visible + this.heldLineBreak() : this.visible + this.fences.end();
  }

  private releaseFirstLine(): void {
    const line = stripChatter(this.firstLine ?? '');
    this.firstLine = undefined;
    this.visible += this.fences.push(line);
  }

  private heldLineBreak(): string {
    if (this.visible === '') return '';
    const held = /\n?`{0,3}\s*$/.exec(this.raw)?.[0] ?? '';
    return held.includes('\n') ? '\n' : '';
  }

  private candidate(): string {
    return this.visible + this.heldLineBreak();
  }
}
