import { createClock } from '@sinonjs/fake-timers';
import { CancelledError } from '../../../src/core/errors';
import type { CompletionRequest } from '../../../src/core/inference';
import { InlineCompletionEngine, type CompletionStreamLike } from '../../../src/core/inlineCompletion/engine';
import { PauseBudget } from '../../../src/core/inlineCompletion/pauseBudget';
import type { SchedulerTimers } from '../../../src/core/inlineCompletion/debounce';
import { EditHistory } from '../../../src/core/nextEdit/editHistory';
import { NextEditEngine } from '../../../src/core/nextEdit/engine';

/**
 * Ghost text and next edit suggestions driven together as the editor drives them, on a fake clock:
 * each keystroke changes the document (a new version), the ghost-text provider is called (VS Code
 * cancels the previous call) and next edits are asked (the change event). The model answers after
 * `latencyMs`. A loaded event loop runs every timer 50-200 ms late and delivers keystrokes late
 * (queued behind the busy work, in order), as a busy extension host does.
 */

/** Two functions, typed as new code (what the workbench finding typed). */
export const TWO_FUNCTIONS = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price * item.count;',
  '  return sum;',
  '}',
  '',
  'function average(items) {',
  '  if (items.length === 0) return 0;',
  '  const all = total(items);',
  '  return all / items.length;',
  '}',
  '',
].join('\n');

export interface Keystroke {
  /** When the user pressed it (ms from the start). */
  at: number;
  /** The text typed so far. */
  typed: string;
}

/** Mulberry32: the same run every time. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The keystrokes of typing `text` at `keysPerSecond` (each gap 0.6-1.4x the mean), pausing 0.6-1.5 s
 * after some line ends (`pauseShare` of them) and 2.5 s at the end.
 */
export function typingScript(text: string, keysPerSecond: number, seed: number, pauseShare = 0.5): Keystroke[] {
  const rand = prng(seed);
  const mean = 1_000 / keysPerSecond;
  const keys: Keystroke[] = [];
  let at = 0;
  for (let i = 1; i <= text.length; i++) {
    keys.push({ at, typed: text.slice(0, i) });
    const pause = text[i - 1] === '\n' && rand() < pauseShare;
    at += Math.round(pause ? 600 + rand() * 900 : mean * (0.6 + rand() * 0.8));
  }
  return keys;
}

export interface SimulationResult {
  keys: number;
  ghostRequests: number;
  nextEditRequests: number;
  requestsPer100Keys: number;
  /** Keys after which ghost text was returned by the provider call of that very key. */
  ghostShownAt: number[];
  nextEditSuggestions: number;
  /** Requests sent while a key was already pressed but not yet delivered (a pause that never was). */
  phantomPauses: number;
  budget: PauseBudget | undefined;
}

export interface SimulationOptions {
  keys: Keystroke[];
  /** Timers and keystroke deliveries late by 50-200 ms (a loaded extension host). */
  loaded?: boolean;
  /** Share one PauseBudget between the two engines (the fix); false: each on its own clock. */
  shareBudget?: boolean;
  nextEdit?: boolean;
  latencyMs?: number;
  /** What the ghost-text model answers (default: a line that never matches what is typed next). */
  ghostAnswer?: string;
}

const ID = 'file:///ws/src/order.js';

/** A loaded event loop: busy for 50-200 ms at a time, with 30-150 ms free between, until `until`. */
function busyBlocks(rand: () => number, until: number): [number, number][] {
  const blocks: [number, number][] = [];
  let t = 0;
  while (t < until) {
    const from = t + Math.round(30 + rand() * 120);
    const to = from + Math.round(50 + rand() * 150);
    blocks.push([from, to]);
    t = to;
  }
  return blocks;
}

export async function simulateTyping(options: SimulationOptions): Promise<SimulationResult> {
  const clock = createClock(Date.parse('2026-04-14T10:20:00Z'));
  const start = clock.now;
  const busy = options.loaded ? busyBlocks(prng(7), (options.keys.at(-1)?.at ?? 0) + 10_000) : [];
  /** When the event loop is free to run something due at `t` (the end of the busy block holding it). */
  const freeAt = (t: number): number => {
    const block = busy.find(([from, to]) => t >= start + from && t < start + to);
    return block ? start + block[1] : t;
  };
  const timers: SchedulerTimers = {
    // Node runs a timer of 0 ms after 1 ms: the I/O that waited (keystrokes) goes before it.
    setTimeout: (callback, ms) => clock.setTimeout(callback, freeAt(clock.now + Math.max(1, ms)) - clock.now),
    clearTimeout: (handle) => clock.clearTimeout(handle as Parameters<typeof clock.clearTimeout>[0]),
  };
  const latencyMs = options.latencyMs ?? 250;
  const budget = options.shareBudget === false ? undefined : new PauseBudget({ timers, now: () => clock.now });
  let ghostRequests = 0;
  let nextEditRequests = 0;
  /** Keys pressed by now, and keys the editor has delivered: a request sent in between was sent for a pause that never was. */
  let delivered = 0;
  let phantom = 0;
  const pressed = (): number => options.keys.filter((k) => start + k.at <= clock.now).length;
  const sent = (): void => {
    if (pressed() > delivered) phantom += 1;
  };
  const answerAfter = (signal: AbortSignal, text: string): CompletionStreamLike => ({
    consume: (onEvent) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) return reject(new CancelledError());
        const handle = timers.setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          onEvent?.({ type: 'text', text });
          resolve({ finishReason: 'stop' });
        }, latencyMs);
        const onAbort = (): void => {
          timers.clearTimeout(handle);
          reject(new CancelledError());
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }),
  });
  const model = (): { id: string; maxModelLen: number | undefined } => ({ id: 'qwen3-coder:30b', maxModelLen: 8_192 });
  const ghost = new InlineCompletionEngine({
    model,
    timers,
    now: () => clock.now,
    ...(budget ? { budget } : {}),
    complete: (_request: CompletionRequest, signal) => {
      ghostRequests += 1;
      sent();
      return answerAfter(signal, options.ghostAnswer ?? 'zq9();');
    },
  });
  const history = new EditHistory(() => clock.now);
  history.open(ID, 'src/order.js', '');
  let text = '';
  let version = 1;
  const nextEdit = new NextEditEngine({
    model,
    history,
    timers,
    now: () => clock.now,
    ...(budget ? { budget } : {}),
    documentNow: (id) => (id === ID ? { version, text } : undefined),
    complete: (request, signal) => {
      nextEditRequests += 1;
      sent();
      // The window back unchanged: no suggestion, but the request was sent all the same.
      const user = String(request.messages?.[1]?.content ?? '');
      return answerAfter(signal, /<window>\n([\s\S]*)\n<\/window>/.exec(user)?.[1]?.replace('<CURSOR>', '') ?? '');
    },
  });
  const ghostShownAt: number[] = [];
  let nextEditSuggestions = 0;
  const pending: Promise<unknown>[] = [];
  let cancelPrevious: AbortController | undefined;
  let deliveredAt = start;
  for (const [k, key] of options.keys.entries()) {
    // Delivered in order, late under load (queued behind the busy work; the timers due by then run
    // first, as Node runs its timers before the I/O that waited).
    const pressed = start + key.at;
    const free = freeAt(pressed);
    deliveredAt = Math.max(deliveredAt, free === pressed ? pressed : free + 1);
    clock.setTimeout(() => {
      delivered = k + 1;
      const inserted = key.typed.slice(text.length);
      history.change(ID, [{ offset: text.length, length: 0, text: inserted }]);
      text = key.typed;
      version += 1;
      cancelPrevious?.abort();
      const call = new AbortController();
      cancelPrevious = call;
      pending.push(ghost.provide({ id: ID, languageId: 'javascript', relativePath: 'src/order.js', text, offset: text.length, version }, {}, call.signal).then((items) => {
        if (items && items.length > 0) ghostShownAt.push(k);
      }));
      if (options.nextEdit !== false) {
        pending.push(nextEdit.suggest({ id: ID, version, languageId: 'javascript', relativePath: 'src/order.js', text, cursor: text.length }).then((r) => {
          if (r.kind === 'suggestion') nextEditSuggestions += 1;
        }));
      }
    }, deliveredAt - clock.now);
  }
  const last = options.keys.at(-1)?.at ?? 0;
  await clock.tickAsync(last + 5_000);
  await Promise.all(pending);
  const keys = options.keys.length;
  return { keys, ghostRequests, nextEditRequests, requestsPer100Keys: ((ghostRequests + nextEditRequests) / keys) * 100, ghostShownAt, nextEditSuggestions, phantomPauses: phantom, budget };
}
