import { isRecord, str } from '../../json';
import { TextBuffer } from './textBuffer';
import type { ToolCall } from './types';

export interface ToolCallFragment {
  index: number;
  id?: string;
  name?: string;
  arguments: string;
}

/** A streamed tool-call fragment as the stream reports it. */
export type ToolCallDeltaEvent = { type: 'tool_call_delta' } & ToolCallFragment;

interface PendingCall {
  index: number;
  id: string;
  name: string;
  args: TextBuffer;
  /** Read from the answer's text, not sent as `tool_calls`. */
  fromText?: true;
}

/**
 * The assembly behind ToolCallAssembler and the stream decoder: folds one `delta.tool_calls`
 * entry in and returns the delta event directly (one object per fragment). Arguments are kept in
 * a TextBuffer, not a rope of fragments.
 */
export class ToolCallStreamAssembler {
  private readonly calls = new Map<number, PendingCall>();
  /** The call the previous fragment went to: fragments of one call usually come in a row. */
  private last: PendingCall | undefined;
  /**
   * For fragments without `index`: the call each position in `delta.tool_calls` currently goes to
   * (by default the position itself). A fragment with a new `id` moves its position to a new call.
   */
  private positions: Map<number, number> | undefined;
  /** The server's index of a call whose own index a call read from text took, to the index it got instead. */
  private moved: Map<number, number> | undefined;

  add(raw: unknown, position: number): ToolCallDeltaEvent | undefined {
    if (!isRecord(raw)) return undefined;
    const fn = isRecord(raw.function) ? raw.function : undefined;
    const id = str(raw.id) || undefined;
    const name = str(fn?.name) || undefined;
    const args = str(fn?.arguments) ?? '';
    let index = typeof raw.index === 'number' ? raw.index : this.unindexed(position, id);
    if (this.moved) index = this.nativeIndex(index);
    let call = this.last;
    if (call === undefined || call.index !== index) {
      call = this.calls.get(index);
      if (!call) {
        call = { index, id: '', name: '', args: new TextBuffer() };
        this.calls.set(index, call);
      }
      this.last = call;
    }
    if (id && !call.id) call.id = id;
    if (name && !call.name) call.name = name;
    if (args !== '') call.args.append(args);
    const event: ToolCallDeltaEvent = { type: 'tool_call_delta', index, arguments: args };
    if (id) event.id = id;
    if (name) event.name = name;
    return event;
  }

  /** A call read from the answer's text: a call of its own, after those so far; a later server call never joins it. */
  addRecovered(id: string, name: string, args: string): ToolCallDeltaEvent {
    const index = this.nextIndex();
    const buffer = new TextBuffer();
    buffer.append(args);
    this.calls.set(index, { index, id, name, args: buffer, fromText: true });
    this.moved ??= new Map();
    return { type: 'tool_call_delta', index, id, name, arguments: args };
  }

  get size(): number {
    return this.calls.size;
  }

  private nextIndex(): number {
    let index = 0;
    for (const i of this.calls.keys()) if (i >= index) index = i + 1;
    return index;
  }

  /** A server call's index, moved past a call read from text that holds it. */
  private nativeIndex(index: number): number {
    const moved = this.moved?.get(index);
    if (moved !== undefined) return moved;
    if (!this.calls.get(index)?.fromText) return index;
    const next = this.nextIndex();
    this.moved?.set(index, next);
    return next;
  }

  /**
   * The call a fragment without `index` belongs to. Servers that send whole calls this way list
   * them in order (position = call); servers that stream them send each call's fragments in their
   * own chunks, so a fragment carrying an id that is not its position's call's starts a new call
   * (or goes back to the call with that id), and fragments without an id continue it.
   */
  private unindexed(position: number, id: string | undefined): number {
    const positions = (this.positions ??= new Map());
    const current = positions.get(position) ?? position;
    if (id === undefined) return current;
    const holder = this.calls.get(current);
    if (!holder || !holder.id || holder.id === id) return current;
    let index: number | undefined;
    for (const [i, c] of this.calls) if (c.id === id) index = i;
    if (index === undefined) {
      index = 0;
      for (const i of this.calls.keys()) if (i >= index) index = i + 1;
    }
    positions.set(position, index);
    return index;
  }

  /** Calls in index order. A call the server sent without an id gets `call_<index>`; `fromText`: read from the answer's text. */
  result(): Array<{ index: number; call: ToolCall; fromText?: true }> {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        index,
        call: {
          id: c.id || `call_${index}`,
          type: 'function' as const,
          function: { name: c.name, arguments: c.args.toString() },
        },
        ...(c.fromText ? { fromText: true as const } : {}),
      }));
  }
}

/**
 * Assembles streamed tool calls by `index`: the first delta of a call carries `id` and
 * `function.name`, later ones append to `function.arguments`.
 */
export class ToolCallAssembler {
  private readonly assembler = new ToolCallStreamAssembler();

  /** Folds one `delta.tool_calls` entry in; returns the fragment to report, if well-formed. */
  add(raw: unknown, position: number): ToolCallFragment | undefined {
    const event = this.assembler.add(raw, position);
    if (!event) return undefined;
    const fragment: ToolCallFragment = { index: event.index, arguments: event.arguments };
    if (event.id) fragment.id = event.id;
    if (event.name) fragment.name = event.name;
    return fragment;
  }

  get size(): number {
    return this.assembler.size;
  }

  /** Calls in index order. A call the server sent without an id gets `call_<index>`. */
  result(): Array<{ index: number; call: ToolCall }> {
    return this.assembler.result();
  }
}

/** Parses a call's arguments JSON; `undefined` when they are not a valid JSON text. */
export function parseToolArguments(call: ToolCall): unknown {
  const text = call.function.arguments.trim();
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
