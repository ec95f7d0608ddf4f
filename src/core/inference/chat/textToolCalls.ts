import { Candidate, type Step } from './textCallCandidate';
import { END_TOKENS, endTokenAt, PARTIAL } from './endTokens';
import { MarkdownCode } from './markdownCode';
import type { OfferedTools } from './offeredTools';
import type { RawCall, TextCallFormat } from './textToolFormats';

export { MAX_CALL_CHARS } from './textCallCandidate';

/** A call recovered from the answer's text, its arguments checked against the tool's schema. */
export interface RecoveredCall {
  name: string;
  arguments: string;
  format: TextCallFormat;
}

export interface TextCallSink {
  onText(text: string): void;
  onCall(call: RecoveredCall): void;
}

/** A 9-character alphanumeric id (the form some servers require) from the answer and position. */
export function recoveredCallId(seed: string, index: number): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ index;
  const text = `${seed}:${index}`;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193) >>> 0;
    b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995) >>> 0;
  }
  return (a.toString(36) + b.toString(36)).padStart(9, '0').slice(-9);
}

interface Marker {
  open: string;
  format: TextCallFormat;
  /** Only where the answer starts (nothing but spaces, or calls that started it, before it). */
  answerStart?: boolean;
  /** Only at the start of a line (a fence). */
  lineStart?: boolean;
}

const MARKERS: readonly Marker[] = [
  { open: '<tool_call>', format: 'hermes' },
  { open: '<function=', format: 'xml' },
  { open: '<|python_tag|>', format: 'llama', answerStart: true },
  { open: '[TOOL_CALLS]', format: 'mistral' },
  { open: '```json', format: 'fenced', lineStart: true },
];
const BARE: Marker = { open: '', format: 'json', answerStart: true };
const END_TOKEN = new RegExp(END_TOKENS.map((t) => t.replace(/[|]/g, '\\|')).join('|'), 'g');

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function mayHoldMarker(delta: string): boolean {
  for (let i = 0; i < delta.length; i++) {
    const c = delta.charCodeAt(i);
    if (c === 60 /* < */ || c === 91 /* [ */ || c === 96 /* ` */) return true;
  }
  return false;
}

/** Complete calls at the answer's end so far, waiting for it to end (or for prose to show they were not). */
interface Held {
  calls: RecoveredCall[];
  /** Their text as it came (shown if prose follows). */
  raw: string;
  /** The spaces between and after them (shown when they are recovered). */
  gaps: string;
  lineStart: boolean;
}

/**
 * Recovers tool calls a model printed in its answer instead of `tool_calls` (Hermes/Qwen
 * `<tool_call>`, Mistral `[TOOL_CALLS]`, Llama `<|python_tag|>` or a bare JSON answer, a ```json
 * fence holding one call, `<function=name>`), only where the format puts them: the answer's last
 * thing (spaces and end tokens after it), outside any code span or fence; `<|python_tag|>` and a
 * bare JSON call only as the whole answer. Anything else is text, shown as written: a quoted call
 * never runs. Text streams through untouched except while it may still be a call: a marker's
 * start, a candidate up to its end (at most MAX_CALL_CHARS), then complete calls until the answer
 * ends (released as text as soon as prose follows). One forward pass over the text: each
 * character is looked at a bounded number of times, however the deltas split it.
 */
export class TextToolCallDetector {
  /** The start of a marker, held until the next delta decides it. */
  private pending = '';
  private candidate: Candidate | undefined;
  private held: Held | undefined;
  private readonly code = new MarkdownCode();
  /** Something other than whitespace was shown: a bare JSON call must be the whole answer. */
  private seenText = false;
  private final = false;

  constructor(
    private readonly sink: TextCallSink,
    private readonly tools: OfferedTools,
  ) {}

  push(delta: string): void {
    if (this.candidate === undefined && this.held === undefined && this.pending === '' && this.seenText && !mayHoldMarker(delta)) {
      this.code.feedText(delta);
      if (delta) this.sink.onText(delta);
      return;
    }
    const s = this.pending + delta;
    this.pending = '';
    this.scan(s);
  }

  /** The answer (or a harmony message) is complete: a held candidate is decided, held calls recovered. */
  flush(): void {
    this.final = true;
    const s = this.pending;
    this.pending = '';
    this.scan(s);
    const held = this.held;
    this.held = undefined;
    if (held) {
      this.code.feedText(held.gaps);
      if (held.gaps) this.sink.onText(held.gaps);
      for (const call of held.calls) this.sink.onCall(call);
    }
    this.final = false;
  }

  /** The stream failed: what is held is shown as it came (nothing is run from a cut answer). */
  release(): void {
    const text = (this.held?.raw ?? '') + (this.candidate?.text() ?? '') + this.pending;
    this.held = undefined;
    this.candidate = undefined;
    this.pending = '';
    this.show(text);
  }

  private scan(input: string): void {
    let s = input;
    for (;;) {
      if (this.candidate) {
        const step = this.candidate.push(s, this.final);
        if (step.kind === 'wait') return;
        s = this.decide(step);
        continue;
      }
      if (s === '') return;
      s = this.walk(s);
    }
  }

  /** A candidate is decided: complete calls are held; anything else is shown. Returns the text after it, to look at again. */
  private decide(step: Exclude<Step, { kind: 'wait' }>): string {
    const candidate = this.candidate as Candidate;
    this.candidate = undefined;
    const text = candidate.text();
    if (step.kind === 'calls') {
      const calls = this.accept(step.calls, candidate.format);
      if (calls) {
        const held = (this.held ??= { calls: [], raw: '', gaps: '', lineStart: false });
        held.calls.push(...calls);
        held.raw += text.slice(0, step.end);
        held.lineStart = false;
        return text.slice(step.end);
      }
    }
    const at = step.kind === 'calls' ? step.end : step.at;
    this.releaseHeld();
    this.show(text.slice(0, at));
    return text.slice(at);
  }

  /** Text outside a candidate. Returns the text from a new candidate's marker on ('' when none). */
  private walk(s: string): string {
    let from = 0;
    let i = 0;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (this.held) {
        if (isSpace(c)) {
          i++;
          continue;
        }
        const token = c === 60 ? endTokenAt(s, i) : '';
        if (token !== '' && token !== PARTIAL) {
          i += token.length;
          continue;
        }
        const marker = token === PARTIAL && !this.final ? PARTIAL : this.markerAt(s, i, i > 0 ? s.charCodeAt(i - 1) === 10 : this.held.lineStart);
        this.addHeld(s.slice(from, i));
        if (marker === PARTIAL) {
          this.pending = s.slice(i);
          return '';
        }
        if (marker) {
          this.candidate = new Candidate(marker.open, marker.format);
          return s.slice(i);
        }
        // Prose after them: the held calls were text.
        this.releaseHeld();
        from = i;
        continue;
      }
      if ((c === 60 || c === 91 || c === 96 || c === 123) && this.code.outside) {
        const marker = this.markerAt(s, i, this.code.atLineStart);
        if (marker) {
          if (i > from) this.sink.onText(s.slice(from, i));
          if (marker === PARTIAL) {
            this.pending = s.slice(i);
            return '';
          }
          this.candidate = new Candidate(marker.open, marker.format);
          return s.slice(i);
        }
      }
      this.code.feed(c);
      if (!this.seenText && !isSpace(c)) this.seenText = true;
      i++;
    }
    if (this.held) this.addHeld(s.slice(from));
    else if (from < s.length) this.sink.onText(from === 0 ? s : s.slice(from));
    return '';
  }

  /** The marker that starts at `i` and may stand there, PARTIAL when `s` ends with the start of one (more text decides), else undefined. */
  private markerAt(s: string, i: number, lineStart: boolean): Marker | typeof PARTIAL | undefined {
    const c = s.charCodeAt(i);
    // Held calls are not shown text: `<|python_tag|>` may follow one that started the answer.
    const answerStart = !this.seenText;
    if (c === 123 /* { */) return answerStart && this.held === undefined ? BARE : undefined;
    for (const marker of MARKERS) {
      if (marker.open.charCodeAt(0) !== c || (marker.answerStart && !answerStart) || (marker.lineStart && !lineStart)) continue;
      if (s.startsWith(marker.open, i)) return marker;
      if (!this.final && s.length - i < marker.open.length && marker.open.startsWith(s.slice(i))) return PARTIAL;
    }
    return undefined;
  }

  private addHeld(text: string): void {
    if (!this.held || text === '') return;
    this.held.raw += text;
    this.held.gaps += text.replace(END_TOKEN, '');
    this.held.lineStart = text.charCodeAt(text.length - 1) === 10;
  }

  /** Prose followed the held calls: they are shown as the text they were. */
  private releaseHeld(): void {
    const held = this.held;
    this.held = undefined;
    if (held) this.show(held.raw);
  }

  /** Shows text that was not walked (a candidate, held calls): the code state follows it. */
  private show(text: string): void {
    if (!text) return;
    this.code.feedText(text);
    if (!this.seenText && text.trim() !== '') this.seenText = true;
    this.sink.onText(text);
  }

  /** The calls if every one is a valid call of an offered tool; otherwise undefined. */
  private accept(calls: readonly RawCall[], format: TextCallFormat): RecoveredCall[] | undefined {
    const accepted: RecoveredCall[] = [];
    for (const call of calls) {
      const args = this.tools.accept(call);
      if (args === undefined) return undefined;
      accepted.push({ name: call.name, arguments: args, format });
    }
    return accepted;
  }
}
