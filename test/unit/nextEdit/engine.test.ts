import * as assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { AuthError, CancelledError } from '../../../src/core/errors';
import type { CompletionRequest } from '../../../src/core/inference';
import { SLOW_DEBOUNCE_FACTOR, TierBackoff, type Admission } from '../../../src/core/inlineCompletion/backoff';
import type { CompletionStreamLike } from '../../../src/core/inlineCompletion/engine';
import { EditHistory } from '../../../src/core/nextEdit/editHistory';
import { DEFAULT_IDLE_MS, NextEditEngine, type NextEditEngineOptions, type NextEditResult } from '../../../src/core/nextEdit/engine';
import type { NextEditDocument } from '../../../src/core/nextEdit/suggestion';

const ID = 'file:///ws/src/total.ts';
const BEFORE = 'function total(items) {\n  let sum = 0;\n  for (const o of items) sum += o;\n  return sum;\n}\n';

/** What the fake model does with one request. */
type Reply = { text: string; finishReason?: string } | { error: unknown };

interface Sent {
  request: CompletionRequest;
  signal: AbortSignal;
  /** Lets the answer out (until then the stream waits, as the network does). */
  release: () => void;
}

describe('core/nextEdit NextEditEngine', () => {
  let clock: ReturnType<typeof createClock>;
  let history: EditHistory;
  let text: string;
  let version: number;
  let sent: Sent[];
  let reply: (request: CompletionRequest) => Reply;
  let autoRelease: boolean;

  beforeEach(() => {
    clock = createClock(Date.parse('2026-04-14T10:20:00Z'));
    history = new EditHistory(() => clock.now);
    text = BEFORE;
    version = 1;
    sent = [];
    autoRelease = true;
    history.open(ID, 'src/total.ts', text);
    // The model renames the loop's `items` too: the follow-up of the user's rename.
    reply = (request) => ({ text: windowOf(request).replace('of items', 'of orders') });
  });

  /** The window the prompt shows, without its marker. */
  function windowOf(request: CompletionRequest): string {
    const user = String(request.messages?.[1]?.content ?? '');
    return /<window>\n([\s\S]*)\n<\/window>/.exec(user)?.[1]?.replace('<CURSOR>', '') ?? '';
  }

  const complete: NextEditEngineOptions['complete'] = (request, signal): CompletionStreamLike => ({
    consume: async (onEvent) => {
      let release = (): void => undefined;
      const gate = new Promise<void>((r) => (release = r));
      sent.push({ request, signal, release });
      if (autoRelease) release();
      await new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new CancelledError()), { once: true });
        void gate.then(resolve);
      });
      const r = reply(request);
      if ('error' in r) throw r.error;
      onEvent?.({ type: 'text', text: r.text });
      return { finishReason: r.finishReason ?? 'stop' };
    },
  });

  function engine(over: Partial<NextEditEngineOptions> = {}): NextEditEngine {
    return new NextEditEngine({
      complete,
      model: () => ({ id: 'qwen3-coder:30b', maxModelLen: 8_192 }),
      history,
      documentNow: (id) => (id === ID ? { version, text } : undefined),
      timers: clock,
      now: () => clock.now,
      ...over,
    });
  }

  /** The user replaces `[offset, offset + length)` by `insert`: the editor's text, version and the history move. */
  function edit(offset: number, length: number, insert: string): NextEditDocument {
    text = text.slice(0, offset) + insert + text.slice(offset + length);
    version += 1;
    history.change(ID, [{ offset, length, text: insert }]);
    return { id: ID, version, languageId: 'typescript', relativePath: 'src/total.ts', text, cursor: offset + insert.length };
  }

  /** Renames the parameter one keystroke at a time, `gapMs` apart, calling suggest() after each. */
  function renameByTyping(e: NextEditEngine, gapMs: number): { results: Promise<NextEditResult>[]; typed: Promise<void> } {
    const results: Promise<NextEditResult>[] = [];
    const at = BEFORE.indexOf('items');
    results.push(e.suggest(edit(at, 5, '')));
    const typed = (async () => {
      for (const [k, c] of [...'orders'].entries()) {
        await clock.tickAsync(gapMs);
        results.push(e.suggest(edit(at + k, 0, c)));
      }
    })();
    return { results, typed };
  }

  it('asks once, after the edit and an idle pause, never per keystroke; earlier calls are superseded', async () => {
    const e = engine();
    const { results, typed } = renameByTyping(e, 120);
    await typed;
    assert.equal(sent.length, 0, 'nothing while typing');
    await clock.tickAsync(DEFAULT_IDLE_MS);
    const all = await Promise.all(results);
    assert.equal(sent.length, 1);
    assert.deepEqual(all.slice(0, -1).map((r) => r.kind === 'none' && r.reason), Array(6).fill('superseded'));
    const last = all.at(-1);
    assert.ok(last?.kind === 'suggestion', JSON.stringify(last));
    assert.equal(last.source, 'network');
    assert.deepEqual(last.suggestion.edits.map((x) => [x.oldText, x.newText, x.range.start.line]), [['item', 'order', 2]]);
    assert.equal(last.suggestion.location, 'elsewhere');
    assert.deepEqual({ requests: e.stats.requests, shown: e.stats.shown, superseded: e.stats.superseded }, { requests: 1, shown: 1, superseded: 6 });
  });

  it('sends a chat-format request: system + user with the recent edit as a diff, max_tokens for the window', async () => {
    const e = engine();
    const pending = e.suggest(edit(BEFORE.indexOf('items'), 5, 'orders'));
    await clock.tickAsync(DEFAULT_IDLE_MS);
    await pending;
    const [first] = sent;
    assert.ok(first);
    assert.equal(first.request.model, 'qwen3-coder:30b');
    assert.deepEqual(first.request.messages?.map((m) => m.role), ['system', 'user']);
    assert.match(String(first.request.messages?.[1]?.content), /<edits>\n--- src\/total\.ts\n\+\+\+ src\/total\.ts\n@@ -1,1 \+1,1 @@\n-function total\(items\) \{\n\+function total\(orders\) \{\n<\/edits>/);
    assert.ok((first.request.max_tokens ?? 0) > 0);
  });

  it('asks nothing without a recent edit in the document', async () => {
    const e = engine();
    const result = await e.suggest({ id: ID, version, languageId: 'typescript', relativePath: 'src/total.ts', text, cursor: 0 });
    assert.deepEqual(result, { kind: 'none', reason: 'noEdits' });
    await clock.tickAsync(DEFAULT_IDLE_MS * 2);
    assert.equal(sent.length, 0);
  });

  it('one request at a time: an edit while one is in flight aborts it, and the next waits for its own pause', async () => {
    autoRelease = false;
    const e = engine();
    const at = BEFORE.indexOf('items');
    const first = e.suggest(edit(at, 5, 'orders'));
    await clock.tickAsync(DEFAULT_IDLE_MS);
    assert.equal(sent.length, 1);
    const second = e.suggest(edit(BEFORE.indexOf('sum = 0') + 1, 0, 'x'));
    assert.equal(sent[0]?.signal.aborted, true, 'the request in flight is cancelled by typing');
    assert.deepEqual(await first, { kind: 'none', reason: 'superseded' });
    await clock.tickAsync(DEFAULT_IDLE_MS - 1);
    assert.equal(sent.length, 1, 'not before the pause');
    await clock.tickAsync(1);
    assert.equal(sent.length, 2);
    sent[1]?.release();
    const result = await second;
    assert.equal(result.kind, 'suggestion');
  });

  it('drops an answer that arrives after the document moved on under the window', async () => {
    autoRelease = false;
    const e = engine();
    const pending = e.suggest(edit(BEFORE.indexOf('items'), 5, 'orders'));
    await clock.tickAsync(DEFAULT_IDLE_MS);
    // A change the engine was not told about (an undo, another extension): the window's text differs.
    text = text.replace('let sum', 'let total');
    version += 1;
    sent[0]?.release();
    assert.deepEqual(await pending, { kind: 'none', reason: 'stale' });
    assert.equal(e.stats.dropped.stale, 1);
  });

  it('serves the same situation from the cache, without a request', async () => {
    const outcomes: string[] = [];
    const e = engine({ onRequest: (info) => outcomes.push(info.outcome) });
    const doc = edit(BEFORE.indexOf('items'), 5, 'orders');
    const first = e.suggest(doc);
    await clock.tickAsync(DEFAULT_IDLE_MS);
    assert.equal((await first).kind, 'suggestion');
    const again = e.suggest(doc);
    await clock.tickAsync(DEFAULT_IDLE_MS);
    const result = await again;
    assert.ok(result.kind === 'suggestion' && result.source === 'cache');
    assert.equal(sent.length, 1);
    assert.deepEqual(outcomes, ['shown'], 'onRequest reports network requests only');
  });

  it('drops an answer that undoes the user\'s edit, changes nothing, or was cut by max_tokens', async () => {
    const cases: [Reply | ((r: CompletionRequest) => Reply), string][] = [
      [(r) => ({ text: windowOf(r).replace('(orders)', '(items)') }), 'undoesLastEdit'],
      [(r) => ({ text: windowOf(r) }), 'noOp'],
      [(r) => ({ text: windowOf(r).replace('of items', 'of orders'), finishReason: 'length' }), 'truncated'],
      [{ text: 'I cannot help with that.' }, 'unrelated'],
    ];
    for (const [k, [r, reason]] of cases.entries()) {
      reply = typeof r === 'function' ? r : () => r;
      const e = engine(); // a fresh cache: the same prompt would be answered from it
      const pending = e.suggest(edit(BEFORE.indexOf('items'), k === 0 ? 5 : 0, k === 0 ? 'orders' : ''));
      await clock.tickAsync(DEFAULT_IDLE_MS);
      const result = await pending;
      assert.deepEqual(result, { kind: 'none', reason }, reason);
    }
  });

  it('leaves out the edits of a file the last gate refuses', async () => {
    history.open('file:///ws/.env', '.env', 'KEY=1\n');
    history.change('file:///ws/.env', [{ offset: 4, length: 1, text: '2' }]);
    const e = engine();
    const pending = e.suggest(edit(BEFORE.indexOf('items'), 5, 'orders'), { includeDocument: (id) => id !== 'file:///ws/.env' });
    await clock.tickAsync(DEFAULT_IDLE_MS);
    await pending;
    assert.ok(!String(sent[0]?.request.messages?.[1]?.content).includes('KEY'));
  });

  it('shares the tier back-off: paused or single-line asks nothing, slow waits longer', async () => {
    let admission: Admission = { allowed: false, debounceMs: 100, singleLineOnly: false, state: { kind: 'paused', reason: 'rateLimited', resumesAt: clock.now + 5_000 } };
    const backoff = new (class extends TierBackoff {
      override admit(): Admission {
        return admission;
      }
    })();
    const e = engine({ backoff });
    assert.deepEqual(await e.suggest(edit(BEFORE.indexOf('items'), 5, 'orders')), { kind: 'none', reason: 'throttled' });
    admission = { allowed: true, debounceMs: 100, singleLineOnly: true, state: { kind: 'singleLine', reason: 'tierNearCap' } };
    assert.deepEqual(await e.suggest(edit(0, 0, ' ')), { kind: 'none', reason: 'throttled' });
    admission = { allowed: true, debounceMs: 300, singleLineOnly: false, state: { kind: 'slow', reason: 'tierNearCap' } };
    const slow = e.suggest(edit(0, 1, ''));
    await clock.tickAsync(DEFAULT_IDLE_MS * SLOW_DEBOUNCE_FACTOR - 1);
    assert.equal(sent.length, 0);
    await clock.tickAsync(1);
    assert.equal(sent.length, 1);
    await slow;
  });

  it('a refused key stops requests through the shared back-off, with one notification', async () => {
    const stops: string[] = [];
    const backoff = new TierBackoff();
    const e = engine({ backoff, onStop: (state) => stops.push(state.kind) });
    reply = () => ({ error: new AuthError('Invalid API key', { reason: 'rejected', status: 401 }) });
    const pending = e.suggest(edit(BEFORE.indexOf('items'), 5, 'orders'));
    await clock.tickAsync(DEFAULT_IDLE_MS);
    assert.deepEqual(await pending, { kind: 'none', reason: 'failed' });
    assert.deepEqual(stops, ['stopped']);
    assert.equal(backoff.state(clock.now).kind, 'stopped');
    assert.deepEqual(await e.suggest(edit(0, 0, ' ')), { kind: 'none', reason: 'throttled' });
    assert.equal(e.stats.failures, 1);
  });

  it('never throws: a failing model getter is a failed suggestion', async () => {
    const e = engine({
      model: () => {
        throw new Error('no model');
      },
    });
    const pending = e.suggest(edit(BEFORE.indexOf('items'), 5, 'orders'));
    await clock.tickAsync(DEFAULT_IDLE_MS);
    assert.deepEqual(await pending, { kind: 'none', reason: 'failed' });
  });

  it('cancel() stops the pending request (the user left the editor)', async () => {
    const e = engine();
    const pending = e.suggest(edit(BEFORE.indexOf('items'), 5, 'orders'));
    e.cancel();
    assert.deepEqual(await pending, { kind: 'none', reason: 'superseded' });
    await clock.tickAsync(DEFAULT_IDLE_MS);
    assert.equal(sent.length, 0);
  });
});
