import { TrailingEndTokens } from './endTokens';
import { HarmonySplitter } from './harmony';
import type { OfferedTools } from './offeredTools';
import { TextToolCallDetector, type RecoveredCall } from './textToolCalls';
import { ThinkSplitter } from './think';

/** How an answer is read: the tools a call printed as text may name, and whether the model writes harmony. */
export interface ContentFormat {
  /** The tools offered in this request, when recovery is on for the model; undefined: no call is read from text. */
  tools?: OfferedTools | undefined;
  /** The model writes the harmony format (gpt-oss): its markers are read anywhere; otherwise only in an answer that starts with one. */
  harmony?: boolean;
}

/** The markers a leaked harmony answer starts with. */
const HARMONY_STARTS = ['<|start|>', '<|channel|>'];

/** A whole `content` string decoded at once (a non-streamed answer). */
export function decodeContent(content: string, format: ContentFormat): { text: string; thinking: string; thinkingOpen: boolean; calls: RecoveredCall[] } {
  let text = '';
  let thinking = '';
  const calls: RecoveredCall[] = [];
  const decoder = new ContentDecoder({ onText: (t) => (text += t), onThinking: (t) => (thinking += t), onCall: (c) => calls.push(c) }, format);
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
 * channels first (only for a harmony model, or an answer that starts with a harmony marker:
 * analysis is reasoning, final the answer, a message `to=functions.x` a call), then `<think>`
 * blocks, then tool calls printed as text (only with `tools`: the tools offered in this request,
 * when recovery is on for the model), then end tokens at the answer's end. A harmony call is
 * judged like a printed one; refused (or with recovery off), its arguments are shown as text,
 * never its markers. Anything else a model writes is shown as written.
 */
export class ContentDecoder {
  private readonly harmony: HarmonySplitter;
  private readonly think: ThinkSplitter;
  private readonly detector: TextToolCallDetector | undefined;
  private readonly ends: TrailingEndTokens;
  private readonly tools: OfferedTools | undefined;
  /** Whether harmony is read: decided by the model, or by the answer's first characters (held until then). */
  private mode: 'sniff' | 'harmony' | 'plain';
  private sniffed = '';

  constructor(
    private readonly sink: ContentSink,
    format: ContentFormat,
  ) {
    const tools = format.tools;
    this.tools = tools;
    this.mode = format.harmony === true ? 'harmony' : 'sniff';
    this.ends = new TrailingEndTokens((t) => sink.onText(t));
    this.detector = tools && tools.size > 0 ? new TextToolCallDetector({ onText: (t) => this.ends.push(t), onCall: (c) => sink.onCall(c) }, tools) : undefined;
    this.think = new ThinkSplitter((kind, text) => {
      if (kind === 'thinking') sink.onThinking(text);
      else if (this.detector) this.detector.push(text);
      else this.ends.push(text);
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
    if (this.mode === 'sniff') {
      // Spaces before the first character pass at once; the first characters decide.
      if (this.sniffed === '') {
        const lead = delta.length - delta.trimStart().length;
        const rest = delta.slice(lead);
        // Decided by this delta alone as plain text: it goes on whole (one delta in, one out).
        if (rest !== '' && !HARMONY_STARTS.some((m) => m.startsWith(rest.slice(0, m.length)))) {
          this.mode = 'plain';
          this.think.push(delta);
          return;
        }
        if (lead > 0) this.think.push(delta.slice(0, lead));
        delta = rest;
        if (delta === '') return;
      }
      this.sniffed += delta;
      if (HARMONY_STARTS.some((m) => m.startsWith(this.sniffed) && m !== this.sniffed)) return;
      this.mode = HARMONY_STARTS.some((m) => this.sniffed.startsWith(m)) ? 'harmony' : 'plain';
      delta = this.sniffed;
      this.sniffed = '';
    }
    if (this.mode === 'harmony') this.harmony.push(delta);
    else this.think.push(delta);
  }

  /** The answer is complete: held text is decided (a candidate call recovered or shown). */
  flush(): void {
    this.endSniff();
    this.harmony.flush();
    this.think.flush();
    this.detector?.flush();
    this.ends.flush();
  }

  /** The stream failed or was cancelled: held text is shown as it came, nothing recovered. */
  release(): void {
    this.endSniff();
    this.harmony.flush();
    this.think.flush();
    this.detector?.release();
    this.ends.release();
  }

  /** The answer ended while its start was still undecided: it was not harmony. */
  private endSniff(): void {
    if (this.mode !== 'sniff') return;
    this.mode = 'plain';
    const held = this.sniffed;
    this.sniffed = '';
    if (held) this.think.push(held);
  }

  private harmonyCall(name: string, args: string): void {
    // The answer's text so far comes first.
    this.think.flush();
    this.detector?.flush();
    const accepted = this.detector && this.tools ? this.tools.accept({ name, args }) : undefined;
    if (accepted !== undefined) this.sink.onCall({ name, arguments: accepted, format: 'harmony' });
    else if (args.trim() !== '') this.ends.push(args);
  }
}
