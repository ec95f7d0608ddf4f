import { isRecord, str } from '../shared/json';
import type { ToolCall } from './types';

export interface ToolCallFragment {
  index: number;
  id?: string;
  name?: string;
  arguments: string;
}

/**
 * Assembles streamed tool calls by `index`: the first delta of a call carries `id` and
 * `function.name`, later ones append to `function.arguments`.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();

  /** Folds one `delta.tool_calls` entry in; returns the fragment to report, if well-formed. */
  add(raw: unknown, position: number): ToolCallFragment | undefined {
    if (!isRecord(raw)) return undefined;
    // Servers that send whole calls without `index` list them in order.
    const index = typeof raw.index === 'number' ? raw.index : position;
    const fn = isRecord(raw.function) ? raw.function : undefined;
    const id = str(raw.id) || undefined;
    const name = str(fn?.name) || undefined;
    const args = str(fn?.arguments) ?? '';
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    if (id && !call.id) call.id = id;
    if (name && !call.name) call.name = name;
    call.args += args;
    const fragment: ToolCallFragment = { index, arguments: args };
    if (id) fragment.id = id;
    if (name) fragment.name = name;
    return fragment;
  }

  get size(): number {
    return this.calls.size;
  }

  /** Calls in index order. A call the server sent without an id gets `call_<index>`. */
  result(): Array<{ index: number; call: ToolCall }> {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        index,
        call: {
          id: c.id || `call_${index}`,
          type: 'function' as const,
          function: { name: c.name, arguments: c.args },
        },
      }));
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
