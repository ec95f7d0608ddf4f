// Ghost text and next edit suggestions together (issue 40, item 16): the typing script of
// bench/completion.mjs replayed in real time through both engines as the editor drives them (each
// keystroke: the ghost-text provider's call, VS Code's cancellation of the previous one, and the
// change event that asks for a next edit), sharing one PauseBudget as the extension wires them,
// against one sandbox. Run quiet, then on a loaded event loop: the process itself is kept busy 50-200
// ms at a time with 30-150 ms free between (so timers run late and keystrokes wait in the queue,
// as in a busy extension host). Called by bench/completion.mjs, which prints the figures:
//   metric inline.requestsPer100KeysWithNextEdit        completion requests the sandbox received per
//                                                       100 keys (target: <= 15)
//   metric inline.requestsPer100KeysWithNextEditLoaded  the same under load (target: <= quiet)
// BENCH_COMPLETION_BUDGET=0 runs both engines each on its own clock (no shared budget), as before
// the budget, to compare.

/** The change from `before` to `after` as one replacement (common prefix and suffix kept). */
function changeBetween(before, after) {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { offset: start, length: before.length - start - end, text: after.slice(start, after.length - end) };
}

/** Keeps the event loop busy in stretches of 50-200 ms with 30-150 ms free between, until stopped. */
function loadEventLoop(rand) {
  let stopped = false;
  let handle;
  const cycle = () => {
    if (stopped) return;
    const until = performance.now() + 50 + rand() * 150;
    while (performance.now() < until) {
      // Busy: what a loaded extension host does to the timers and the keystrokes behind them.
    }
    handle = setTimeout(cycle, 30 + rand() * 120);
  };
  handle = setTimeout(cycle, 30);
  return () => {
    stopped = true;
    clearTimeout(handle);
  };
}

/**
 * Replays `steps` ({ docId, text, offset, gapMs }) through both engines, in real time.
 * @param {any} m the bundle (engines, EditHistory, PauseBudget, the sandbox, the client)
 * @param {{ docId: string, text: string, offset: number, gapMs: number }[]} steps
 * @param {{ loaded: boolean, shareBudget: boolean, model: string, latencyMs: number, tokenMs: number, prng: (seed: number) => () => number }} options
 */
export async function runBothFeatures(m, steps, options) {
  const sandbox = await m.startSandbox({ port: 0 });
  sandbox.control.setLatency({ ms: options.latencyMs, chunkDelayMs: options.tokenMs, pathPrefix: '/v1/' });
  const client = m.createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
  const budget = options.shareBudget && typeof m.PauseBudget === 'function' ? new m.PauseBudget() : undefined;
  const model = () => ({ id: options.model, maxModelLen: undefined });
  const sent = { ghostText: 0, nextEdit: 0 };
  const ghost = new m.InlineCompletionEngine({
    model,
    ...(budget ? { budget } : {}),
    complete: (request, signal) => {
      sent.ghostText += 1;
      return client.completeStream(request, { signal, purpose: 'inline' });
    },
  });
  const history = new m.EditHistory(() => Date.now());
  /** @type {Map<string, { text: string, version: number }>} */
  const docs = new Map();
  const nextEdit = new m.NextEditEngine({
    model,
    history,
    ...(budget ? { budget } : {}),
    documentNow: (id) => docs.get(id),
    complete: (request, signal) => {
      sent.nextEdit += 1;
      return client.completeStream(request, { signal, purpose: 'nextEdit' });
    },
  });
  const stopLoad = options.loaded ? loadEventLoop(options.prng(99)) : () => undefined;
  let shownAtPause = 0;
  let pauses = 0;
  let nextEditShown = 0;
  const pending = [];
  let cancelPrevious;
  try {
    for (const [k, step] of steps.entries()) {
      const doc = docs.get(step.docId);
      if (!doc) history.open(step.docId, step.docId.slice(15), step.text);
      else history.change(step.docId, [changeBetween(doc.text, step.text)]);
      const version = (doc?.version ?? 0) + 1;
      docs.set(step.docId, { text: step.text, version });
      cancelPrevious?.abort();
      const call = new AbortController();
      cancelPrevious = call;
      const snapshot = { id: step.docId, languageId: 'javascript', relativePath: step.docId.slice(15), text: step.text, offset: step.offset, version };
      const pause = step.gapMs >= 500;
      if (pause) pauses += 1;
      pending.push(ghost.provide(snapshot, {}, call.signal).then((items) => {
        if (pause && items && items.length > 0) shownAtPause += 1;
      }));
      pending.push(nextEdit.suggest({ id: step.docId, version, languageId: 'javascript', relativePath: step.docId.slice(15), text: step.text, cursor: step.offset }).then((r) => {
        if (r.kind === 'suggestion') nextEditShown += 1;
      }));
      // The next key is pressed `gapMs` later by the clock; a busy loop delivers it when it can.
      const due = performance.now() + step.gapMs;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      void k;
    }
    await new Promise((r) => setTimeout(r, 3_000));
  } finally {
    stopLoad();
  }
  await Promise.all(pending);
  const received = sandbox.control.requests().filter((r) => /^\/v1\/(chat\/)?completions/.test(r.path)).length;
  ghost.cancel();
  nextEdit.cancel();
  await client.close();
  await sandbox.close();
  return { received, sent, shownAtPause, pauses, nextEditShown, budget: budget ? structuredClone(budget.stats) : undefined };
}
