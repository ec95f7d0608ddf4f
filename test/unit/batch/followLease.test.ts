import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FollowLeases, STALE_LEASE_MS } from '../../../src/core/inference/batch/followLease';

describe('batch: one window follows a job (a lease per job in the shared global storage)', () => {
  let dir: string;
  let now: number;
  const windowOf = (owner: string, staleMs?: number): FollowLeases => new FollowLeases({ dir, owner, now: () => now, ...(staleMs !== undefined ? { staleMs } : {}) });
  const leaseFile = (): string => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.lease'));
    assert.equal(files.length, 1, `lease files: ${files.join(', ')}`);
    return join(dir, files[0] ?? '');
  };

  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'stratus-lease-')), 'batch-leases');
    now = Date.now();
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('the first window takes the lease; another is refused while it is renewed; the holder takes it again', async () => {
    const a = windowOf('window-a');
    const b = windowOf('window-b');
    assert.equal(await a.acquire('job-1'), true);
    assert.equal(await b.acquire('job-1'), false);
    assert.equal(await a.acquire('job-1'), true);
    assert.equal(await b.holds('job-1'), false);
    // Renewed within the stale time, again and again: never taken over.
    for (let i = 0; i < 3; i++) {
      now += STALE_LEASE_MS - 1_000;
      assert.equal(await a.renew('job-1'), true);
      assert.equal(await b.acquire('job-1'), false);
    }
    // Another job's lease is its own.
    assert.equal(await b.acquire('job-2'), true);
  });

  it('a lease not renewed for the stale time is taken over, and its old holder learns it on renewal', async () => {
    const a = windowOf('window-a');
    const b = windowOf('window-b');
    assert.equal(await a.acquire('job-1'), true);
    now += STALE_LEASE_MS + 1;
    assert.equal(await b.acquire('job-1'), true);
    assert.equal(await a.holds('job-1'), false);
    assert.equal(await a.renew('job-1'), false, 'the window that lost it must stop');
    assert.equal(await b.holds('job-1'), true);
  });

  it('release frees only the holder\'s own lease', async () => {
    const a = windowOf('window-a');
    const b = windowOf('window-b');
    assert.equal(await a.acquire('job-1'), true);
    await b.release('job-1');
    assert.equal(await a.holds('job-1'), true, 'another window cannot free it');
    await a.release('job-1');
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.lease')), []);
    assert.equal(await b.acquire('job-1'), true);
  });

  it('a lease being written (empty or partial) is fresh by its file time, and stale when that time is old', async () => {
    const a = windowOf('window-a');
    const b = windowOf('window-b');
    assert.equal(await a.acquire('job-1'), true);
    const file = leaseFile();
    writeFileSync(file, '{"owner":"window-');
    assert.equal(await b.acquire('job-1'), false, 'a partial lease written just now is someone\'s');
    const old = (Date.now() - STALE_LEASE_MS - 60_000) / 1000;
    utimesSync(file, old, old);
    assert.equal(await b.acquire('job-1'), true, 'its writer died long ago');
  });

  it('a lease renewed "in the future" (a clock set back) is stale, so no window holds a job forever', async () => {
    const a = windowOf('window-a');
    const b = windowOf('window-b');
    now += 10 * STALE_LEASE_MS;
    assert.equal(await a.acquire('job-1'), true);
    now -= 10 * STALE_LEASE_MS;
    assert.equal(await b.acquire('job-1'), true);
  });

  it('windows racing for a free lease: exactly one takes it; racing for a stale one: exactly one holds it after', async () => {
    const windows = ['a', 'b', 'c', 'd'].map((name) => windowOf(`window-${name}`));
    const taken = await Promise.all(windows.map((w) => w.acquire('job-1')));
    assert.equal(taken.filter(Boolean).length, 1, `taken: ${taken.join(', ')}`);
    now += STALE_LEASE_MS + 1;
    await Promise.all(windows.map((w) => w.acquire('job-1')));
    const holding = await Promise.all(windows.map((w) => w.holds('job-1')));
    assert.equal(holding.filter(Boolean).length, 1, `holding: ${holding.join(', ')}`);
  });

  it('any job id (separators, dots, very long) makes one file inside the folder', async () => {
    const a = windowOf('window-a');
    for (const id of ['../../escape', 'a/b\\c', '.', 'x'.repeat(10_000), 'ünïcödé 🚀']) {
      assert.equal(await a.acquire(id), true, id.slice(0, 20));
      await a.release(id);
    }
    assert.deepEqual(readdirSync(join(dir, '..')), ['batch-leases']);
    assert.deepEqual(readdirSync(dir), []);
  });
});
