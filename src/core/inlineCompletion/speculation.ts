import { typeAhead } from './cache';
import type { CompletionMode } from './mode';

/** A cursor position: the document and its text before and after the cursor. */
export interface Anchor {
  documentId: string;
  prefix: string;
  suffix: string;
}

/** Suggestions kept for type-ahead at the following positions (the most recent first). */
export const RECEIVED_KEPT = 4;
/** An in-flight request is given up once the user typed this much past its position. */
export const MAX_TYPED_AHEAD = 240;

interface Received extends Anchor {
  text: string;
  /** The request that produced it (see EngineStats.requests), if known. */
  seq: number | undefined;
}

/** A remaining text usable at a position, and the request it came from. */
export interface Candidate {
  text: string;
  seq: number | undefined;
}

/**
 * The suggestions received lately, shown or not (a keystroke may have come before the answer):
 * while the user types characters one of them starts with, the rest of it is still the answer
 * (type-ahead, as Copilot does), so no request is needed. A suggestion is anchored to its
 * document, its prefix and its suffix: an edit after the cursor makes it stale.
 */
export class ReceivedSuggestions {
  private entries: Received[] = [];

  add(anchor: Anchor, text: string, seq: number | undefined): void {
    this.entries = [{ ...anchor, text, seq }, ...this.entries.filter((e) => !(e.documentId === anchor.documentId && e.prefix === anchor.prefix && e.text === text))].slice(0, RECEIVED_KEPT);
  }

  /** The distinct remaining texts usable at `anchor`, the most recent suggestion first. */
  candidates(anchor: Anchor): Candidate[] {
    const found: Candidate[] = [];
    for (const entry of this.entries) {
      if (entry.suffix !== anchor.suffix) continue;
      const rest = typeAhead(entry, anchor.documentId, anchor.prefix);
      if (rest !== undefined && !found.some((c) => c.text === rest)) found.push({ text: rest, seq: entry.seq });
    }
    return found;
  }

  clear(): void {
    this.entries = [];
  }
}

/**
 * A request on its way. It is not aborted by the next keystroke when that keystroke continues
 * its line: its answer may still be what the user is typing (speculative reuse). It is aborted
 * as soon as it cannot serve any more: the user deleted, moved, edited after the cursor, or
 * typed something its streamed text contradicts.
 */
export class InflightRequest {
  private readonly controller = new AbortController();
  private gaveUp = false;
  /** What the user typed since the request left (follows the latest position). */
  private typed = '';
  private streamed = '';

  constructor(
    readonly anchor: Anchor,
    readonly mode: CompletionMode,
    readonly result: Promise<string | undefined>,
    /** Its number among the requests sent (EngineStats.requests). */
    readonly seq: number,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Its answer can serve nobody: aborted, so the server stops generating. False if it already was. */
  abandon(): boolean {
    if (this.gaveUp) return false;
    this.gaveUp = true;
    this.controller.abort();
    return true;
  }

  get abandoned(): boolean {
    return this.gaveUp;
  }

  /** The answer is decided (early stop): the rest is not read, the server stops generating. */
  stop(): void {
    this.controller.abort();
  }

  /** Whether the answer may still serve the position `anchor` (the user typed on from here). */
  covers(anchor: Anchor): boolean {
    if (this.gaveUp) return false;
    if (anchor.documentId !== this.anchor.documentId || anchor.suffix !== this.anchor.suffix) return false;
    if (!anchor.prefix.startsWith(this.anchor.prefix)) return false;
    const typed = anchor.prefix.slice(this.anchor.prefix.length);
    if (typed.length > MAX_TYPED_AHEAD) return false;
    if (this.mode.kind === 'single' && typed.includes('\n')) return false;
    return consistent(this.streamed, typed);
  }

  /** The user is now at `anchor` (which it covers): later deltas are checked against what was typed. */
  follow(anchor: Anchor): void {
    this.typed = anchor.prefix.slice(this.anchor.prefix.length);
  }

  /** A streamed delta arrived: false (and aborted) when it contradicts what the user typed since. */
  streamedDelta(delta: string): boolean {
    this.streamed += delta;
    if (consistent(this.streamed, this.typed)) return true;
    this.abandon();
    return false;
  }
}

/**
 * Whether a partial answer and the text typed since the request can still agree: one starts with
 * the other. A fence or chatter line is not judged (the answer proper has not started).
 */
function consistent(streamed: string, typed: string): boolean {
  if (typed === '' || streamed === '') return true;
  if (/^\s*`/.test(streamed) || /^[A-Z][a-z]+ [a-z]/.test(streamed)) return true;
  return streamed.startsWith(typed) || typed.startsWith(streamed);
}
