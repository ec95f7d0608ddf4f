// A simulated 8-hour session on a fake clock (issue 22): the Cloud view's trees expand every five
// minutes while the console's 5-minute JWT is refreshed about 100 times, and the usage store
// takes a request a minute, rolling hours and a day (the session crosses midnight). Counted, not
// timed: pending timers, abort listeners on the tree's long-lived signal, change listeners, the
// redactor's secrets (an expired JWT must not stay in it), the heap after collection.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createConsoleClient, type ConsoleClient } from '../../../src/core/console/index';
import { Redactor } from '../../../src/core/http/redact';
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

  it('refreshes the JWT ~100 times while trees expand and usage rolls: no growth of timers, listeners, secrets or memory', async () => {
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
      await quiet(w);
      samples.push({ minute, timers: ownTimers(clock).length, abortListeners: getEventListeners(view.signal, 'abort').length });
      if (minute === 60) baselineHeap = heapMB();
      await clock.tickAsync(5 * MINUTE - (clock.now - started));
    }
    await meter.flush();
    const endHeap = heapMB();

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
    watching.dispose();
    sessionWatch.dispose();
    assert.ok(sessions.size >= 90, `${sessions.size} sessions seen`);
    console.log(`      soak: ${jwts.length} JWTs over ${HOURS} h, ${exchanges} exchanges, timers max ${Math.max(...samples.map((s) => s.timers))}, heap ${baselineHeap.toFixed(1)} -> ${endHeap.toFixed(1)} MB`);
  });
});
