import type { OfferedTools } from './offeredTools';
import {
  callFromMistralArgs,
  callFromXml,
  callJsonPrefix,
  callsFromHermes,
  callsFromJson,
  INCOMPLETE,
  jsonValueEnd,
  type RawCall,
  type TextCallFormat,
} from './textToolFormats';

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
  /** Only at the start of a line (a fence). */
  lineStart?: boolean;
}

const MARKERS: readonly Marker[] = [
  { open: '<tool_call>', format: 'hermes' },
  { open: '[TOOL_CALLS]', format: 'mistral' },
  { open: '<|python_tag|>', format: 'llama' },
  { open: '<function=', format: 'xml' },
  { open: '```json', format: 'fenced', lineStart: true },
];
const BARE: Marker = { open: '', format: 'json' };
/** End-of-turn tokens a Llama server may leak after a call: never part of the answer. */
const DROPPED = ['<|eom_id|>', '<|eot_id|>'];
/** The most a candidate call is held back before it is shown as the text it is. */
export const MAX_CALL_CHARS = 100_000;

type Step = { kind: 'wait' } | { kind: 'reject' } | { kind: 'calls'; calls: RawCall[]; consumed: number };
const WAIT: Step = { kind: 'wait' };
const REJECT: Step = { kind: 'reject' };

function mayHoldMarker(delta: string): boolean {
  for (let i = 0; i < delta.length; i++) {
    const c = delta.charCodeAt(i);
    if (c === 60 /* < */ || c === 91 /* [ */ || c === 96 /* ` */) return true;
  }
  return false;
}

/**
 * Recovers tool calls a model printed in its answer instead of `tool_calls` (Hermes/Qwen
 * `<tool_call>`, Mistral `[TOOL_CALLS]`, Llama `<|python_tag|>` or a bare JSON answer, a ```json
 * fence holding one call, `<function=name>`). Text streams through untouched except while it may
 * still be a call: a marker's start, or a candidate up to its end (at most MAX_CALL_CHARS). A
 * candidate that is not a call of an offered tool with valid arguments is shown as it came.
 */
export class TextToolCallDetector {
  private pending = '';
  private candidate: Marker | undefined;
  private atLineStart = true;
  /** Something other than whitespace was shown: a bare JSON call must be the whole answer. */
  private seenText = false;
  private final = false;

  constructor(
    private readonly sink: TextCallSink,
    private readonly tools: OfferedTools,
  ) {}

  push(delta: string): void {
    if (this.candidate === undefined && this.pending === '' && this.seenText && !mayHoldMarker(delta)) {
      this.emitText(delta);
      return;
    }
    this.pending += delta;
    this.scan();
  }

  /** The answer is complete: a held candidate is decided, the rest shown. */
  flush(): void {
    this.final = true;
    this.scan();
    this.emitText(this.pending);
    this.pending = '';
    // A segment (a harmony message) may end before the answer does.
    this.final = false;
  }

  /** The stream failed: what is held is shown as it came (nothing is run from a cut answer). */
  release(): void {
    this.candidate = undefined;
    this.emitText(this.pending);
    this.pending = '';
  }

  private scan(): void {
    while (this.pending) {
      if (this.candidate) {
        const step = this.pending.length > MAX_CALL_CHARS ? REJECT : this.step(this.candidate);
        if (step.kind === 'wait') return;
        if (step.kind === 'calls' && this.accept(step.calls, this.candidate.format)) {
          this.pending = this.pending.slice(step.consumed);
        } else {
          // Not a call: its first character is text, and the rest is looked at again.
          const skip = Math.max(1, this.candidate.open.length);
          this.emitText(this.pending.slice(0, skip));
          this.pending = this.pending.slice(skip);
        }
        this.candidate = undefined;
        continue;
      }
      if (!this.seenText) {
        const lead = this.pending.length - this.pending.trimStart().length;
        if (this.pending[lead] === '{') {
          this.emitText(this.pending.slice(0, lead));
          this.pending = this.pending.slice(lead);
          this.candidate = BARE;
          continue;
        }
      }
      const found = this.findMarker();
      if (found) {
        this.emitText(this.pending.slice(0, found.at));
        this.pending = this.pending.slice(found.at);
        if (found.marker) this.candidate = found.marker;
        else this.pending = this.pending.slice(found.length);
        continue;
      }
      const keep = this.final ? 0 : this.partialMarkerSuffix();
      this.emitText(this.pending.slice(0, this.pending.length - keep));
      this.pending = this.pending.slice(this.pending.length - keep);
      return;
    }
  }

  private lineStartAt(at: number): boolean {
    return at === 0 ? this.atLineStart : this.pending[at - 1] === '\n';
  }

  private findMarker(): { at: number; marker?: Marker; length: number } | undefined {
    let best: { at: number; marker?: Marker; length: number } | undefined;
    const s = this.pending;
    for (const marker of MARKERS) {
      for (let at = s.indexOf(marker.open); at >= 0 && (!best || at < best.at); at = s.indexOf(marker.open, at + 1)) {
        if (!marker.lineStart || this.lineStartAt(at)) {
          best = { at, marker, length: marker.open.length };
          break;
        }
      }
    }
    for (const token of DROPPED) {
      const at = s.indexOf(token);
      if (at >= 0 && (!best || at < best.at)) best = { at, length: token.length };
    }
    return best;
  }

  /** Length of the longest end of the held text that may be the start of a marker. */
  private partialMarkerSuffix(): number {
    const s = this.pending;
    for (let i = Math.max(0, s.length - 14); i < s.length; i++) {
      const tail = s.slice(i);
      if (MARKERS.some((m) => m.open.startsWith(tail) && (!m.lineStart || this.lineStartAt(i)))) return s.length - i;
      if (DROPPED.some((t) => t.startsWith(tail))) return s.length - i;
    }
    return 0;
  }

  private step(marker: Marker): Step {
    const s = this.pending;
    const body = s.slice(marker.open.length);
    switch (marker.format) {
      case 'hermes': {
        const t = body.trimStart();
        if (t.startsWith('<') ? !(t.startsWith('<function=') || '<function='.startsWith(t)) : callJsonPrefix(t, false) === 'no') return REJECT;
        const end = body.indexOf('</tool_call>');
        if (end < 0) return this.final ? this.calls(callsFromHermes(body), s.length) : WAIT;
        return this.calls(callsFromHermes(body.slice(0, end)), marker.open.length + end + '</tool_call>'.length);
      }
      case 'xml': {
        const name = /^[A-Za-z0-9_.-]*/.exec(body)?.[0] ?? '';
        if (name.length > 64 || (name.length < body.length && body[name.length] !== '>')) return REJECT;
        // After `<function=name>` come JSON arguments or `<parameter=`; anything else is prose.
        const inner = body.slice(name.length + 1).trimStart();
        if (name.length < body.length && inner !== '' && inner[0] !== '{' && !(inner.startsWith('<parameter=') || '<parameter='.startsWith(inner)) && !inner.startsWith('</function>')) return REJECT;
        const end = s.indexOf('</function>');
        if (end < 0) return this.final ? REJECT : WAIT;
        const consumed = end + '</function>'.length;
        const call = callFromXml(s.slice(0, consumed));
        return this.calls(call ? [call] : undefined, consumed);
      }
      case 'llama':
        return this.jsonAfter(marker.open.length, false);
      case 'mistral': {
        const t = body.trimStart();
        if (t === '') return this.final ? REJECT : WAIT;
        if (t[0] === '[' || t[0] === '{') return this.jsonAfter(marker.open.length, true);
        const name = /^[A-Za-z0-9_.-]*/.exec(t)?.[0] ?? '';
        const after = t.slice(name.length);
        if (name.length > 64 || name === '') return REJECT;
        if (after === '' || ('[ARGS]'.startsWith(after) && after.length < 6)) return this.final ? REJECT : WAIT;
        if (!after.startsWith('[ARGS]')) return REJECT;
        const argsAt = s.length - after.length + '[ARGS]'.length;
        const lead = s.length - s.slice(argsAt).trimStart().length;
        if (lead === s.length) return this.final ? REJECT : WAIT;
        const end = jsonValueEnd(s, lead);
        if (end === INCOMPLETE) return this.final ? REJECT : WAIT;
        if (end < 0) return REJECT;
        const call = callFromMistralArgs(s.slice(marker.open.length, end));
        return this.calls(call ? [call] : undefined, end);
      }
      case 'fenced': {
        const nl = body.indexOf('\n');
        if (nl < 0) return body.trim() === '' && !this.final ? WAIT : REJECT;
        if (body.slice(0, nl).trim() !== '') return REJECT;
        const inner = body.slice(nl + 1);
        if (callJsonPrefix(inner, true) === 'no') return REJECT;
        const close = inner.indexOf('```');
        if (close < 0) return this.final ? REJECT : WAIT;
        const calls = callsFromJson(inner.slice(0, close), true);
        return this.calls(calls?.length === 1 ? calls : undefined, marker.open.length + nl + 1 + close + 3);
      }
      default: {
        // A bare JSON object, a call only if it is the whole answer.
        if (callJsonPrefix(s, false) === 'no') return REJECT;
        const end = jsonValueEnd(s, 0);
        if (end === INCOMPLETE) return this.final ? REJECT : WAIT;
        if (end < 0) return REJECT;
        let trailer = s.slice(end);
        for (const token of DROPPED) trailer = trailer.split(token).join('');
        if (trailer.trim() !== '' && !DROPPED.some((t) => t.startsWith(trailer.trim()))) return REJECT;
        if (!this.final) return WAIT;
        return this.calls(callsFromJson(s.slice(0, end), false), s.length);
      }
    }
  }

  /** A JSON call (or array of them, when allowed) right after the marker. */
  private jsonAfter(from: number, allowArray: boolean): Step {
    const s = this.pending;
    const rest = s.slice(from);
    const prefix = callJsonPrefix(rest, allowArray);
    if (prefix === 'no') return REJECT;
    const lead = s.length - rest.trimStart().length;
    if (lead === s.length) return this.final ? REJECT : WAIT;
    const end = jsonValueEnd(s, lead);
    if (end === INCOMPLETE) return this.final ? REJECT : WAIT;
    if (end < 0) return REJECT;
    return this.calls(callsFromJson(s.slice(lead, end), allowArray), end);
  }

  private calls(calls: RawCall[] | undefined, consumed: number): Step {
    return calls && calls.length > 0 ? { kind: 'calls', calls, consumed } : REJECT;
  }

  /** Emits the calls if every one is a valid call of an offered tool; otherwise nothing. */
  private accept(calls: readonly RawCall[], format: TextCallFormat): boolean {
    const accepted: RecoveredCall[] = [];
    for (const call of calls) {
      const args = this.tools.accept(call);
      if (args === undefined) return false;
      accepted.push({ name: call.name, arguments: args, format });
    }
    for (const call of accepted) this.sink.onCall(call);
    return true;
  }

  private emitText(text: string): void {
    if (!text) return;
    this.sink.onText(text);
    this.atLineStart = text.endsWith('\n');
    if (!this.seenText && text.trim() !== '') this.seenText = true;
  }
}
