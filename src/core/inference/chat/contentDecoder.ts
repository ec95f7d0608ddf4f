import { HarmonySplitter } from './harmony';
import type { OfferedTools } from './offeredTools';
import { TextToolCallDetector, type RecoveredCall } from './textToolCalls';
import { ThinkSplitter } from './think';

/** A whole `content` string decoded at once (a non-streamed answer). */
export function decodeContent(content: string, tools: OfferedTools | undefined): { text: string; thinking: string; thinkingOpen: boolean; calls: RecoveredCall[] } {
  let text = '';
  let thinking = '';
  const calls: RecoveredCall[] = [];
  const decoder = new ContentDecoder({ onText: (t) => (text += t), onThinking: (t) => (thinking += t), onCall: (c) => calls.push(c) }, tools);
  decoder.push(content);
  decoder.flush();
  return { text: calls.length > 0 && text.trim() === '' ? '' : text, thinking, thinkingOpen: decoder.thinkingOpen, calls };
}

export interface ContentSink {
  onText(text: string): void;
  onThinking(text: string): void;
  onCall(call: RecoveredCall): void;
}

/**
 * Streamed `content` into answer, reasoning and calls, whatever the deltas' splits: harmony
 * channels first (analysis is reasoning, final the answer, a message `to=functions.x` a call),
 * then `<think>` blocks, then tool calls printed as text (only with `tools`: the tools offered in
 * this request, when recovery is on for the model). A harmony call is judged like a printed one;
 * refused (or with recovery off), its arguments are shown as text, never its markers.
 */
export class ContentDecoder {
  private readonly harmony: HarmonySplitter;
  private readonly think: ThinkSplitter;
  private readonly detector: TextToolCallDetector | undefined;

  constructor(
    private readonly sink: ContentSink,
    private readonly tools: OfferedTools | undefined,
  ) {
    this.detector = tools && tools.size > 0 ? new TextToolCallDetector({ onText: (t) => sink.onText(t), onCall: (c) => sink.onCall(c) }, tools) : undefined;
    this.think = new ThinkSplitter((kind, text) => {
      if (kind === 'thinking') sink.onThinking(text);
      else if (this.detector) this.detector.push(text);
      else sink.onText(text);
    });
    this.harmony = new HarmonySplitter({
      onText: (kind, text) => {
        if (kind === 'thinking') sink.onThinking(text);
        else this.think.push(text);
      },
      onCall: (name, args) => this.harmonyCall(name, args),
    });
  }

  /** A `<think>` block was opened and not closed (so far). */
  get thinkingOpen(): boolean {
    return this.think.open;
  }

  push(delta: string): void {
    this.harmony.push(delta);
  }

  /** The answer is complete: held text is decided (a candidate call recovered or shown). */
  flush(): void {
    this.harmony.flush();
    this.think.flush();
    this.detector?.flush();
  }

  /** The stream failed or was cancelled: held text is shown as it came, nothing recovered. */
  release(): void {
    this.harmony.flush();
    this.think.flush();
    this.detector?.release();
  }

  private harmonyCall(name: string, args: string): void {
    // The answer's text so far comes first.
    this.think.flush();
    this.detector?.flush();
    const accepted = this.detector && this.tools ? this.tools.accept({ name, args }) : undefined;
    if (accepted !== undefined) this.sink.onCall({ name, arguments: accepted, format: 'harmony' });
    else if (args.trim() !== '') this.sink.onText(args);
  }
}
