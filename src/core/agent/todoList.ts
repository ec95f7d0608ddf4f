import type { ToolOutcome } from './types';

/**
 * The to-do list the model keeps for a task through the `stratus_todo` tool: add items (a list of
 * titles), start one, complete one. Pure data with plain-JSON state, so a turn can keep it in its
 * result metadata and the next turn (or the system message after compaction) can carry it on.
 */

export type TodoStatus = 'pending' | 'in-progress' | 'done';

export interface TodoItem {
  /** 1, 2, 3... in the order added; never reused. */
  readonly id: number;
  readonly title: string;
  readonly status: TodoStatus;
}

export type TodoAction =
  | { readonly action: 'add'; readonly titles: readonly string[] }
  | { readonly action: 'start'; readonly id: number }
  | { readonly action: 'complete'; readonly id: number };

/** A call the list refuses, with a sentence the model can act on. */
export class TodoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TodoError';
  }
}

/** Most items one list holds, and the longest title kept (a runaway model cannot grow the prompt without bound). */
export const MAX_TODO_ITEMS = 50;
export const MAX_TODO_TITLE = 200;

const MARK: Readonly<Record<TodoStatus, string>> = { pending: '[ ]', 'in-progress': '[~]', done: '[x]' };

function isItem(value: unknown): value is TodoItem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Number.isInteger(v.id) && (v.id as number) > 0 && typeof v.title === 'string' && (v.status === 'pending' || v.status === 'in-progress' || v.status === 'done');
}

/** Reads the tool's raw input into an action, or throws a TodoError that says what is wrong. */
export function parseTodoAction(input: Readonly<Record<string, unknown>>): TodoAction {
  const action = input.action;
  if (action === 'add') {
    const titles = input.titles;
    if (!Array.isArray(titles) || titles.length === 0) throw new TodoError('"add" needs "titles": a non-empty array of item titles.');
    if (!titles.every((t): t is string => typeof t === 'string' && t.trim().length > 0)) throw new TodoError('Every title in "titles" must be a non-empty string.');
    return { action, titles };
  }
  if (action === 'start' || action === 'complete') {
    const id = input.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) throw new TodoError(`"${action}" needs "id": the number of an item of the list.`);
    return { action, id };
  }
  throw new TodoError(`Unknown action ${JSON.stringify(action)}: use "add", "start" or "complete".`);
}

export class TodoList {
  private items: TodoItem[] = [];
  private nextId = 1;

  /** A list from state kept earlier (result metadata); anything malformed is left out. */
  static from(state: unknown): TodoList {
    const list = new TodoList();
    if (!Array.isArray(state)) return list;
    const seen = new Set<number>();
    for (const raw of state) {
      if (!isItem(raw) || seen.has(raw.id) || list.items.length >= MAX_TODO_ITEMS) continue;
      seen.add(raw.id);
      list.items.push({ id: raw.id, title: raw.title.slice(0, MAX_TODO_TITLE), status: raw.status });
      list.nextId = Math.max(list.nextId, raw.id + 1);
    }
    return list;
  }

  get size(): number {
    return this.items.length;
  }

  /** Plain JSON, for result metadata. */
  state(): TodoItem[] {
    return this.items.map((i) => ({ ...i }));
  }

  /** Applies one action; throws a TodoError (the list unchanged) when it cannot. */
  apply(action: TodoAction): void {
    switch (action.action) {
      case 'add': {
        const titles = action.titles.map((t) => t.trim().replace(/\s+/g, ' ').slice(0, MAX_TODO_TITLE));
        if (this.items.length + titles.length > MAX_TODO_ITEMS) throw new TodoError(`The list holds at most ${MAX_TODO_ITEMS} items; it has ${this.items.length}. Group the work into fewer steps.`);
        for (const title of titles) this.items.push({ id: this.nextId++, title, status: 'pending' });
        return;
      }
      case 'start': {
        const item = this.find(action.id);
        if (item.status === 'done') throw new TodoError(`Item ${item.id} ("${item.title}") is already done; it cannot be started again.`);
        this.set(item.id, 'in-progress');
        return;
      }
      case 'complete': {
        // Completing a done item again changes nothing: a repeated call is not an error.
        const item = this.find(action.id);
        if (item.status !== 'done') this.set(item.id, 'done');
        return;
      }
    }
  }

  /** The item being worked on: the first in progress, else undefined. */
  current(): TodoItem | undefined {
    return this.items.find((i) => i.status === 'in-progress');
  }

  done(): number {
    return this.items.filter((i) => i.status === 'done').length;
  }

  /** One line of progress: "2/5: title of the current item" (its position), or "3/5 done". */
  progressLine(): string | undefined {
    if (this.items.length === 0) return undefined;
    const current = this.current();
    if (current) return `${this.items.indexOf(current) + 1}/${this.items.length}: ${current.title}`;
    return `${this.done()}/${this.items.length} done`;
  }

  /** The list as Markdown task lines (what the tool returns and the chat shows at the end). */
  markdown(): string {
    return this.items.map((i) => `- ${MARK[i.status]} ${i.id}. ${i.status === 'in-progress' ? `**${i.title}**` : i.title}`).join('\n');
  }

  /** For the system message: the list survives compaction of the tool calls that built it. */
  systemNote(): string {
    if (this.items.length === 0) return '';
    const lines = this.items.map((i) => `${i.id}. [${i.status}] ${i.title}`);
    return `Your to-do list for this task (kept with the stratus_todo tool; ${this.done()} of ${this.items.length} done):\n${lines.join('\n')}`;
  }

  private find(id: number): TodoItem {
    const item = this.items.find((i) => i.id === id);
    if (!item) throw new TodoError(this.items.length === 0 ? `No item ${id}: the list is empty. Add items first.` : `No item ${id}: the list has ids ${this.items.map((i) => i.id).join(', ')}.`);
    return item;
  }

  private set(id: number, status: TodoStatus): void {
    this.items = this.items.map((i) => (i.id === id ? { ...i, status } : i));
  }
}

/** Applies one `stratus_todo` call to a list: the list as Markdown, or the error the model can act on. */
export function applyTodo(list: TodoList, input: Readonly<Record<string, unknown>>): ToolOutcome {
  try {
    list.apply(parseTodoAction(input));
  } catch (error) {
    if (error instanceof TodoError) return { content: `Error: ${error.message}`, isError: true };
    throw error;
  }
  return { content: `Updated; ${list.done()} of ${list.size} done:\n${list.markdown()}` };
}
