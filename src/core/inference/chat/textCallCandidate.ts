import {
  callFromMistralArgs,
  callFromXml,
  callJsonPrefix,
  callsFromHermes,
  callsFromJson,
  type RawCall,
  type TextCallFormat,
} from './textToolFormats';

/** The most a candidate call is held back before it is shown as the text it is. */
export const MAX_CALL_CHARS = 100_000;
/** The start of a candidate that decides its shape (spaces, a name, the first key) is read within this many characters. */
const PREFIX_WINDOW = 256;

/**
 * What a candidate is after more text: still open; not a call (`at`: the text up to there is
 * shown, and what follows is looked at again); or calls ending at `end`.
 */
export type Step = { kind: 'wait' } | { kind: 'reject'; at: number } | { kind: 'calls'; calls: RawCall[]; end: number };
const WAIT: Step = { kind: 'wait' };

/**
 * The index just past a JSON object or array, read incrementally: each chunk goes on from where
 * the last stopped, so a candidate growing by small deltas is read once in all (linear).
 */
class JsonEnd {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Absolute index of the next character to read. */
  private pos: number;

  constructor(start: number) {
    this.pos = start;
  }

  /** `chunk` holds the text from absolute index `at` on. End index, -1 while it may still close, -2 when no object or array starts there. */
  advance(chunk: string, at: number): number {
    for (let i = this.pos - at; i < chunk.length; i++, this.pos++) {
      const c = chunk.charCodeAt(i);
      if (this.depth === 0 && c !== 123 && c !== 91) return -2;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92 /* \ */) this.escaped = true;
        else if (c === 34 /* " */) this.inString = false;
        continue;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === 0) return ++this.pos;
      }
    }
    return -1;
  }
}

/** Searches `tag` in each chunk as it arrives, with the end of the one before (linear over the candidate's life). */
class TagSearch {
  private tail = '';

  constructor(private readonly tag: string) {}

  /** `chunk` holds the text from absolute index `at` on; the tag's absolute index, or -1. */
  find(chunk: string, at: number): number {
    const s = this.tail + chunk;
    const found = s.indexOf(this.tag);
    if (found >= 0) return at - this.tail.length + found;
    this.tail = s.slice(Math.max(0, s.length - this.tag.length + 1));
    return -1;
  }
}

function firstNonSpace(s: string, from: number, limit: number): number {
  const stop = Math.min(s.length, limit);
  for (let i = from; i < stop; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
  }
  return -1;
}

/** The start of a candidate kept apart for the checks of its shape (all within it). */
const HEAD = 640;

/**
 * One possible call printed as text, from its marker on. Its shape is checked within its first
 * characters (`head`); its end is then searched in each delta as it comes, and it is parsed
 * once, when complete: the work over a candidate's life is linear in its length, however it is
 * split. `final`: no more text will come.
 */
export class Candidate {
  private parts: string[] = [];
  private size = 0;
  private head = '';
  private prefix: 'maybe' | 'yes' = 'maybe';
  private json: JsonEnd | undefined;
  private search: TagSearch | undefined;
  /** Absolute index where what is scanned starts (the JSON, or the line after a fence's opening line). */
  private start = -1;
  /** Mistral's `name[ARGS]{...}` form (not a JSON list). */
  private namedArgs = false;

  constructor(
    readonly open: string,
    readonly format: TextCallFormat,
  ) {}

  /** The candidate's text so far (joined once, when asked). */
  text(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }

  push(delta: string, final: boolean): Step {
    const at = this.size;
    if (delta) {
      this.parts.push(delta);
      this.size += delta.length;
      if (this.head.length < HEAD) this.head += delta.slice(0, HEAD - this.head.length);
    }
    const step = this.step(delta, at, final);
    if (step.kind === 'calls' && step.end > MAX_CALL_CHARS) return { kind: 'reject', at: MAX_CALL_CHARS };
    if (step.kind === 'wait' && this.size >= MAX_CALL_CHARS) return { kind: 'reject', at: MAX_CALL_CHARS };
    if (step.kind === 'wait' && final) return { kind: 'reject', at: this.size };
    return step;
  }

  private reject(): Step {
    return { kind: 'reject', at: Math.max(1, this.open.length) };
  }

  private calls(calls: RawCall[] | undefined, end: number): Step {
    return calls && calls.length > 0 ? { kind: 'calls', calls, end } : { kind: 'reject', at: end };
  }

  /** Whether the text from `from` can still be (or is) a call object (an array of them when allowed). */
  private shape(from: number, allowArray: boolean): 'no' | 'maybe' | 'yes' {
    if (this.prefix === 'yes') return 'yes';
    const window = this.head.slice(from, from + PREFIX_WINDOW);
    const shape = callJsonPrefix(window, allowArray);
    if (shape === 'maybe' && (window.length === PREFIX_WINDOW || from + window.length >= HEAD)) return 'no';
    if (shape === 'yes') this.prefix = 'yes';
    return shape;
  }

  /** The first non-space index from `from` within the head: -1 while only spaces came (WAIT), -2 when too many did. */
  private lead(from: number): number {
    const at = firstNonSpace(this.head, from, from + PREFIX_WINDOW);
    if (at >= 0) return at;
    return this.size >= from + PREFIX_WINDOW || this.head.length >= HEAD ? -2 : -1;
  }

  /** The text a scanner started at `start` reads first: all from there if it was just made, else the new delta. */
  private chunk(fresh: boolean, start: number, delta: string, at: number): [string, number] {
    return fresh ? [this.text().slice(start), start] : [delta, at];
  }

  private step(delta: string, at: number, final: boolean): Step {
    const open = this.open.length;
    switch (this.format) {
      case 'hermes': {
        const fresh = this.search === undefined;
        if (fresh) {
          const lead = this.lead(open);
          if (lead === -2) return this.reject();
          if (lead === -1) return WAIT;
          if (this.head.charCodeAt(lead) === 60 /* < */) {
            const head = this.head.slice(lead, lead + 10);
            if (!(head.startsWith('<function=') || '<function='.startsWith(head))) return this.reject();
            if (head.length < 10) return WAIT;
          } else {
            const shape = this.shape(open, false);
            if (shape === 'no') return this.reject();
            if (shape === 'maybe') return WAIT;
          }
          this.search = new TagSearch('</tool_call>');
        }
        const [chunk, from] = this.chunk(fresh, open, delta, at);
        const end = this.search?.find(chunk, from) ?? -1;
        if (end < 0) return final ? this.calls(callsFromHermes(this.text().slice(open)), this.size) : WAIT;
        return this.calls(callsFromHermes(this.text().slice(open, end)), end + '</tool_call>'.length);
      }
      case 'xml': {
        const fresh = this.search === undefined;
        if (fresh) {
          const head = this.head.slice(open, open + 66);
          const name = /^[A-Za-z0-9_.-]*/.exec(head)?.[0] ?? '';
          if (name.length > 64 || (name.length < head.length && head[name.length] !== '>')) return this.reject();
          if (name.length === head.length) return WAIT;
          // After `<function=name>` come JSON arguments or `<parameter=`; anything else is prose.
          const lead = this.lead(open + name.length + 1);
          if (lead === -2) return this.reject();
          if (lead === -1) return WAIT;
          const inner = this.head.slice(lead, lead + 12);
          const known = ['<parameter=', '</function>'];
          if (inner[0] !== '{' && !known.some((k) => inner.startsWith(k) || k.startsWith(inner))) return this.reject();
          if (inner[0] !== '{' && !known.some((k) => inner.startsWith(k))) return WAIT;
          this.search = new TagSearch('</function>');
        }
        const [chunk, from] = this.chunk(fresh, open, delta, at);
        const end = this.search?.find(chunk, from) ?? -1;
        if (end < 0) return WAIT;
        const consumed = end + '</function>'.length;
        const call = callFromXml(this.text().slice(0, consumed));
        return this.calls(call ? [call] : undefined, consumed);
      }
      case 'llama':
        return this.jsonAfter(open, false, delta, at);
      case 'mistral': {
        const fresh = this.json === undefined;
        if (fresh) {
          const lead = this.lead(open);
          if (lead === -2) return this.reject();
          if (lead === -1) return WAIT;
          const c = this.head.charCodeAt(lead);
          if (c === 91 || c === 123) return this.jsonAfter(open, true, delta, at);
          const head = this.head.slice(lead, lead + 71);
          const name = /^[A-Za-z0-9_.-]*/.exec(head)?.[0] ?? '';
          if (name.length > 64 || name === '') return this.reject();
          const after = head.slice(name.length);
          if (after.length < 6) return '[ARGS]'.startsWith(after) ? WAIT : this.reject();
          if (!after.startsWith('[ARGS]')) return this.reject();
          const args = this.lead(lead + name.length + 6);
          if (args === -2) return this.reject();
          if (args === -1) return WAIT;
          this.json = new JsonEnd(args);
          this.start = args;
          this.namedArgs = true;
        }
        if (!this.namedArgs) return this.jsonAfter(open, true, delta, at);
        const [chunk, from] = this.chunk(fresh, this.start, delta, at);
        const end = this.json?.advance(chunk, from) ?? -2;
        if (end === -1) return WAIT;
        if (end === -2) return this.reject();
        const call = callFromMistralArgs(this.text().slice(open, end));
        return this.calls(call ? [call] : undefined, end);
      }
      case 'fenced': {
        const fresh = this.search === undefined;
        if (fresh) {
          const nl = this.head.indexOf('\n', open);
          if (nl < 0) return this.head.length - open > PREFIX_WINDOW || this.head.slice(open).trim() !== '' ? this.reject() : WAIT;
          if (this.head.slice(open, nl).trim() !== '') return this.reject();
          const shape = this.shape(nl + 1, true);
          if (shape === 'no') return this.reject();
          if (shape === 'maybe') return WAIT;
          this.start = nl + 1;
          this.search = new TagSearch('```');
        }
        const [chunk, from] = this.chunk(fresh, this.start, delta, at);
        const close = this.search?.find(chunk, from) ?? -1;
        if (close < 0) return WAIT;
        const calls = callsFromJson(this.text().slice(this.start, close), true);
        return this.calls(calls?.length === 1 ? calls : undefined, close + 3);
      }
      default: {
        // A bare JSON object: a call only as the whole answer (the detector sees to that).
        const shape = this.shape(0, false);
        if (shape === 'no') return this.reject();
        const fresh = this.json === undefined;
        this.json ??= new JsonEnd(0);
        const [chunk, from] = this.chunk(fresh, 0, delta, at);
        const end = this.json.advance(chunk, from);
        if (end === -1) return WAIT;
        if (end === -2) return this.reject();
        return this.calls(callsFromJson(this.text().slice(0, end), false), end);
      }
    }
  }

  /** A JSON call (or array of them, when allowed) right after the marker. */
  private jsonAfter(from: number, allowArray: boolean, delta: string, at: number): Step {
    if (this.shape(from, allowArray) === 'no') return this.reject();
    const fresh = this.json === undefined;
    if (fresh) {
      const lead = this.lead(from);
      if (lead === -2) return this.reject();
      if (lead === -1) return WAIT;
      this.json = new JsonEnd(lead);
      this.start = lead;
    }
    const [chunk, chunkAt] = this.chunk(fresh, this.start, delta, at);
    const end = this.json?.advance(chunk, chunkAt) ?? -2;
    if (end === -1) return WAIT;
    if (end === -2) return this.reject();
    return this.calls(callsFromJson(this.text().slice(this.start, end), allowArray), end);
  }
}
