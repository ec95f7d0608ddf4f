// A simulated 8-hour session on a fake clock (issue 22): the Cloud view's trees expand every five
// minutes while the console's 5-minute JWT is refreshed about 100 times, and the usage store
// takes a request a minute, rolling hours and a day (the session crosses midnight), and the search
// index takes a file event every five minutes (an edit, a create, a delete in turn) through its
// debounce and its delayed saves. Counted, not timed: pending timers, abort listeners on the
// tree's long-lived signal, change listeners, the redactor's secrets (an expired JWT must not stay
// in it), the index's backlog, the heap after collection.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createConsoleClient, type ConsoleClient } from '../../../src/core/console/index';
import { Redactor } from '../../../src/core/http/redact';
import { DEFAULT_SEARCH_SETTINGS, LexicalIndex, loadStoredIndex, NodeFileSystem, NodeIndexStorage, SearchEngine } from '../../../src/core/search';
import { UsageMeter } from '../../../src/core/usage/meter';
import { UsageStore } from '../../../src/core/usage/store';
import { captureLogger } from '../console/helpers';
import { drive, ownTimers, quiet, startWorld, stopWorld, type World } from './harness';
import { jwtForms, SecretSet } from './secrets';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

const MINUTE = 60_000;
const HOURS = 8;

/** A word made of letters only (one token), unique to `n`: what a file holds at one moment. */
function wordFor(n: number): string {
  const syllables = ['ka', 'zu', 'mi', 'ro', 'te', 'vo', 'ni', 'sa'];
  let word = 'soak';
  for (let k = n + 1; k > 0; k = Math.floor(k / 8)) word += syllables[k % 8];
  return `${word}qx`;
}

/**
 * The workspace the search index watches, and what each file should answer to: an edit replaces a
 * file's word, a create adds one, a delete takes one away (the words that must answer no more).
 */
class Workspace {
  readonly live = new Map<string, string>();
  readonly dead: string[] = [];
  private made = 0;
  constructor(readonly root: string) {
    mkdirSync(join(root, 'src'), { recursive: true });
    for (let i = 0; i < 8; i++) this.write(`src/file${i}.ts`);
  }
  private write(path: string): string {
    const old = this.live.get(path);
    if (old) this.dead.push(old);
    const word = wordFor(this.made++);
    writeFileSync(join(this.root, path), `export function ${word}(input: string): number {\n  return input.length;\n}\n`);
    this.live.set(path, word);
    return word;
  }
  /** The step's file event, applied on disk; returns what the engine is told. */
  step(n: number): { path: string; event: 'changed' | 'deleted' } {
    const paths = [...this.live.keys()];
    const kind = n % 3 === 2 && paths.length <= 5 ? 0 : n % 3;
    if (kind === 1) {
      const path = `src/new${n}.ts`;
      this.write(path);
      return { path, event: 'changed' };
    }
    const path = paths[n % paths.length] ?? '';
    if (kind === 0) {
      this.write(path);
      return { path, event: 'changed' };
    }
    unlinkSync(join(this.root, path));
    this.dead.push(this.live.get(path) ?? '');
    this.live.delete(path);
    return { path, event: 'deleted' };
  }
}

describe('soak: an 8-hour session on a fake clock', function () {
  this.timeout(120_000);
  let world: World | undefined;
  let client: ConsoleClient | undefined;
  let dir = '';

  before(async () => {
    // 20:00 UTC: the session crosses midnight, so the usage store rolls a day too.
    world = await startWorld('production', { now: '2026-03-02T20:00:00Z', jwtLifetimeSeconds: 300 });
    dir = mkdtempSync(join(tmpdir(), 'stratus-soak-'));
  });
  after(async () => {
    await client?.close();
    await stopWorld(world);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refreshes the JWT ~100 times while trees expand, usage rolls and the search index updates: no growth of timers, listeners, secrets, backlog or memory', async () => {
    const w = world;
    assert.ok(w);
    const { sandbox, clock } = w;
    const redactor = new Redactor();
    const logger = captureLogger();
    client = createConsoleClient({
      baseUrl: sandbox.consoleUrl,
      pat: { id: async () => sandbox.credentials.patId, secret: async () => sandbox.credentials.patSecret },
      logger,
      redactor,
      fetch: w.fetch,
    });
    const c = client;
    const store = new UsageStore({ dir, timeZone: 'UTC', now: () => clock.now });
    const meter = new UsageMeter({ store, timeZone: 'UTC', now: () => clock.now, logger, compactEvery: 50 });
    let changes = 0;
    const watching = meter.onDidChange(() => (changes += 1));
    const sessions = new Set<string>();
    const sessionWatch = c.auth.onDidChangeSession(() => undefined);
    // The view's long-lived signal: every expansion passes it, none may leave a listener on it.
    const view = new AbortController();
    // The search index over a small workspace, on the same fake clock (its debounce and its saves).
    const workspace = new Workspace(join(dir, 'ws'));
    const settings = { ...DEFAULT_SEARCH_SETTINGS };
    const engine = new SearchEngine({ fs: new NodeFileSystem(workspace.root), storage: new NodeIndexStorage(join(dir, 'index')), logger, settings: () => settings });
    let indexUpdates = 0;
    engine.onDidUpdate = () => (indexUpdates += 1);
    await engine.open();
    await engine.persisted();
    const stale: string[] = [];

    const samples: Array<{ minute: number; timers: number; abortListeners: number; heap?: number }> = [];
    let baselineHeap = 0;
    const jwts: string[] = [];
    const hourUsed: number[] = [];
    for (let minute = 0; minute < HOURS * 60; minute += 5) {
      const started = clock.now;
      const listed: Awaited<ReturnType<typeof drive<number>>> = await drive(w, async (): Promise<number> => {
        const vms = await c.list('virtualMachines', { signal: view.signal });
        const users = await c.list('users', { signal: view.signal });
        return vms.items.length + users.items.length;
      }, MINUTE);
      assert.equal(listed.error, undefined, `minute ${minute}: ${String(listed.error)}`);
      assert.ok((listed.value ?? 0) > 0);
      const token = [...w.bearers].at(-1);
      if (token && jwts.at(-1) !== token) jwts.push(token);
      if (c.auth.session) sessions.add(String(c.auth.session.expiresAt));
      // A request a minute for the usage store (recorded as the metered client would).
      for (let k = 0; k < 5; k++) meter.record({ kind: 'chat', at: started + k * MINUTE, model: 'gpt-oss:120b', promptTokens: 100, completionTokens: 50, reasoningTokens: 0, estimated: false });
      if (minute % 15 === 0) await meter.refresh({ compact: minute % 60 === 0 });
      hourUsed.push(meter.snapshot().hour.used);
      // A file event, applied when its debounce fires on the fake clock; earlier saves are done.
      const step = minute / 5;
      const event = workspace.step(step);
      if (event.event === 'deleted') engine.notifyDeleted(event.path);
      else engine.notifyChanged(event.path);
      await clock.tickAsync(settings.debounceMs);
      await engine.flush();
      await engine.persisted();
      const expected = workspace.live.get(event.path);
      const answered = expected ? engine.lexical(expected).map((h) => h.path) : [];
      if (expected && answered[0] !== event.path) stale.push(`step ${step}: ${expected} -> ${JSON.stringify(answered)}`);
      if (engine.stats.files !== workspace.live.size) stale.push(`step ${step}: ${engine.stats.files} files indexed, ${workspace.live.size} on disk`);
      await quiet(w);
      samples.push({ minute, timers: ownTimers(clock).length, abortListeners: getEventListeners(view.signal, 'abort').length });
      if (minute === 60) baselineHeap = heapMB();
      await clock.tickAsync(5 * MINUTE - (clock.now - started));
    }
    await meter.flush();
    const endHeap = heapMB();
    // The last event's save is due 10 s after it: it runs out, then nothing of the index is pending.
    await clock.tickAsync(10_000);
    await engine.persisted();
    const timersLeft = ownTimers(clock).length;

    // JWT: about one exchange per 270 s (5 min lifetime, refreshed 30 s early).
    const exchanges = sandbox.control.requests({ pathPrefix: '/api/iam/v2/auth/personal_access_token' }).length;
    assert.ok(jwts.length >= 90 && jwts.length <= 120, `${jwts.length} JWTs used`);
    assert.ok(exchanges >= 90, `${exchanges} exchanges`);
    // Nothing grows: timers and abort listeners stay at their first-hour level.
    const first = samples.slice(0, 12);
    const maxTimers = Math.max(...first.map((s) => s.timers));
    assert.ok(samples.every((s) => s.timers <= maxTimers), `timers: ${samples.map((s) => s.timers).join(',')}`);
    assert.ok(samples.every((s) => s.abortListeners === 0), `abort listeners left on the view's signal: ${samples.map((s) => s.abortListeners).join(',')}`);
    assert.ok(endHeap - baselineHeap < 16, `heap ${baselineHeap.toFixed(1)} MB after the first hour, ${endHeap.toFixed(1)} MB after ${HOURS} h`);
    // The redactor holds the current JWT only: every earlier one is out (past its life), the PAT stays.
    const current = jwts.at(-1) ?? '';
    assert.notEqual(redactor.redact(`x ${current} x`), `x ${current} x`, 'the current JWT is redacted');
    const kept = jwts.slice(0, -1).filter((jwt) => redactor.redact(jwt) !== jwt);
    assert.deepEqual(kept, [], 'expired JWTs are no longer held');
    assert.ok(!redactor.redact(`${sandbox.credentials.patSecret}`).includes(sandbox.credentials.patSecret), 'the PAT secret stays redacted');
    // And none of them reached the log.
    const secrets = new SecretSet();
    secrets.add('PAT secret', sandbox.credentials.patSecret);
    for (const jwt of jwts) secrets.add('JWT', jwt, jwtForms);
    assert.deepEqual(logger.lines.filter((l) => secrets.find(l.message).length > 0), []);
    // Usage: the hour window rolls (never more than an hour of requests: 60 x 50 tokens), the day
    // too at midnight, and the store holds all 8 hours once reloaded.
    assert.ok(Math.max(...hourUsed) <= 60 * 50, `hour window: ${Math.max(...hourUsed)}`);
    const snapshot = meter.snapshot();
    assert.ok(snapshot.day.used < HOURS * 60 * 50, `the day rolled at midnight: ${snapshot.day.used}`);
    const reloaded = await new UsageStore({ dir, timeZone: 'UTC', now: () => clock.now }).load();
    // Folded into coarser buckets on disk, the same totals: nothing lost, nothing counted twice.
    assert.deepEqual(reloaded.ledger.total(-Infinity, Infinity), meter.ledgerCopy().total(-Infinity, Infinity));
    assert.equal(reloaded.ledger.total(-Infinity, Infinity).requests, HOURS * 60);
    assert.ok(changes > 0);
    // Search index: every event applied right after its debounce, none left over; at the end it
    // answers each file's latest word, none of the replaced or deleted ones, and so does the saved copy.
    assert.deepEqual(stale, []);
    assert.equal(indexUpdates, HOURS * 12);
    await engine.flush();
    assert.equal(ownTimers(clock).length, timersLeft, 'a flush with nothing queued schedules nothing');
    for (const [path, word] of workspace.live) assert.deepEqual(engine.lexical(word).map((h) => h.path), [path], word);
    assert.deepEqual(workspace.dead.filter((word) => engine.lexical(word).length > 0), [], 'replaced or deleted words still answer');
    assert.ok(workspace.dead.length >= HOURS * 12 * (2 / 3) - 1, `${workspace.dead.length} words retired`);
    // The saved copy: the segment and the live file of the changes since (format v6).
    const saved = (await loadStoredIndex(new NodeIndexStorage(join(dir, 'index')), engine.settingsKey()))?.index;
    assert.ok(saved instanceof LexicalIndex, 'the saved index loads');
    assert.deepEqual([...saved.paths()].sort(), [...workspace.live.keys()].sort());
    engine.dispose();
    await engine.persisted();
    watching.dispose();
    sessionWatch.dispose();
    assert.ok(sessions.size >= 90, `${sessions.size} sessions seen`);
    console.log(`      soak: ${jwts.length} JWTs over ${HOURS} h, ${exchanges} exchanges, timers max ${Math.max(...samples.map((s) => s.timers))}, heap ${baselineHeap.toFixed(1)} -> ${endHeap.toFixed(1)} MB, index ${indexUpdates} updates, ${workspace.live.size} files`);
  });
});
