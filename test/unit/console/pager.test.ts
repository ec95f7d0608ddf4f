import assert from 'node:assert/strict';
import { CancelledError } from '../../../src/core/errors';
import { PagedList, type ConsoleClient, type ResourceItem, type ScanProgress } from '../../../src/core/console/index';
import type { RecordedRequest, Sandbox } from '../../sandbox/index';
import { AUTH_PATH, Fixtures, fakeJwt, json, jwtClaims } from './helpers';

const VMS = '/api/compute/v1/virtual-machines';

function vmList(client: ConsoleClient, options: { maxScanPages?: number; onProgress?: (p: ScanProgress) => void } = {}): PagedList<ResourceItem> {
  return new PagedList<ResourceItem>({
    fetch: (r) => client.list('virtualMachines', { offset: r.offset, limit: r.limit, ...(r.name ? { name: r.name } : {}), signal: r.signal }),
    idOf: (item) => item.id,
    ...options,
  });
}

function offsets(requests: readonly RecordedRequest[]): number[] {
  return requests.map((r) => Number(new URLSearchParams(r.query).get('offset')));
}

/** Polls the sandbox's own request log (in-process) until `probe` holds: the server side of an abort lands a few ticks later. */
async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`never saw: ${what}`);
}

describe('console/pager: paging a production-shaped server (bare arrays, 200, no total)', function () {
  this.timeout(120_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  async function production(vmCount: number): Promise<{ sb: Sandbox; client: ConsoleClient }> {
    // Rate limits off on both sides: this is about paging, and 100 pages at 25 r/s would take 4 s.
    const sb = await fx.sandbox({ profile: 'production', productionLists: 'plain', vmCount, consoleRateLimits: false });
    const client = fx.client(sb, { rateLimits: { perModule: 100_000, auth: 100_000 } });
    await client.auth.signIn();
    sb.control.clearRequests();
    return { sb, client };
  }

  it('a full page of 100 (200, bare array, no total) offers "Load more…"; a short page ends it', async () => {
    const { sb, client } = await production(150);
    const first = await client.list('virtualMachines', { limit: 100 });
    assert.equal(first.items.length, 100);
    assert.equal(first.total, undefined);
    assert.equal(first.nextOffset, 100, 'a full page may have more behind it');
    const second = await client.list('virtualMachines', { limit: 100, offset: 100 });
    assert.equal(second.items.length, 50);
    assert.equal(second.nextOffset, undefined);
    const raw = sb.control.requests({ pathPrefix: VMS });
    assert.deepEqual(raw.map((r) => r.status), [200, 200], 'production answered 200 both times');
  });

  it('walks a 10,000-VM tenant by "Load more…" to the end, each page asked for once; the empty page after the last full one removes "Load more…"', async () => {
    const { sb, client } = await production(10_000);
    const list = vmList(client);
    await list.ensureLoaded();
    let clicks = 0;
    while (list.nextOffset !== undefined) {
      assert.equal(list.nextOffset, list.items.length, '"Load more…" continues where the list stopped');
      await list.loadMore();
      clicks++;
      assert.ok(clicks <= 100, 'the walk ends');
    }
    assert.equal(clicks, 100, '99 full pages after the first, then one empty page');
    assert.equal(list.items.length, 10_000);
    assert.equal(new Set(list.items.map((i) => i.id)).size, 10_000);
    assert.equal(list.error, undefined);
    const seen = sb.control.requests({ pathPrefix: VMS });
    // The request log keeps the latest 500: all 101 page requests are there.
    assert.deepEqual(offsets(seen), Array.from({ length: 101 }, (_, i) => i * 100));
    assert.ok(seen.every((r) => r.status === 200));
    const last = await client.list('virtualMachines', { limit: 1, offset: 9_999 });
    assert.equal(list.items.at(-1)?.id, last.items[0]?.id, 'the last VM is reachable');
  });

  it('a name filter the server ignores reads on through pages until it finds the LAST VM of 10,000, with progress', async () => {
    const { sb, client } = await production(10_000);
    const lastVm = (await client.list('virtualMachines', { limit: 1, offset: 9_999 })).items[0];
    assert.ok(lastVm);
    sb.control.clearRequests();
    const progress: ScanProgress[] = [];
    const list = vmList(client, { onProgress: (p) => progress.push(p) });
    await list.setFilter(lastVm.name);
    assert.deepEqual(list.items.map((i) => i.id), [lastVm.id]);
    const seen = sb.control.requests({ pathPrefix: VMS });
    assert.equal(seen.length, 100, 'read page after page until the match (the 100th page)');
    assert.ok(seen.every((r) => new URLSearchParams(r.query).get('name') === lastVm.name), 'the filter was sent each time (the server ignored it)');
    assert.ok(progress.length >= 2);
    assert.deepEqual(progress.filter((p) => !p.done).map((p) => p.checked), Array.from({ length: 99 }, (_, i) => (i + 1) * 100).slice(1), 'progress after each page of the search');
    assert.equal(progress.at(-1)?.done, true);
    // The matching page was full: "Load more…" stays until an empty page says the list ended.
    assert.equal(list.nextOffset, 10_000);
    await list.loadMore();
    assert.equal(list.nextOffset, undefined);
    assert.deepEqual(list.items.map((i) => i.id), [lastVm.id]);
  });

  it('the search is bounded: after maxScanPages pages without a match it stops, and "Load more…" searches on', async () => {
    const { sb, client } = await production(2_500);
    const list = vmList(client, { maxScanPages: 10 });
    await list.setFilter('no-such-vm-anywhere');
    assert.equal(list.items.length, 0);
    assert.equal(list.nextOffset, 1_000);
    assert.equal(list.checked, 1_000);
    assert.equal(sb.control.requests({ pathPrefix: VMS }).length, 10);
    await list.loadMore();
    assert.equal(list.nextOffset, 2_000);
    await list.loadMore();
    assert.equal(list.nextOffset, undefined, 'the list ended');
    assert.equal(list.items.length, 0);
    assert.deepEqual(offsets(sb.control.requests({ pathPrefix: VMS })), Array.from({ length: 26 }, (_, i) => i * 100), 'the last page was full: one empty page ends the list');
  });

  it('the search is cancellable: clearing the filter aborts the page in flight (the server sees the client leave) and reads no further', async () => {
    const { sb, client } = await production(5_000);
    const list = vmList(client);
    const progress: ScanProgress[] = [];
    const scanning = vmList(client, { onProgress: (p) => progress.push(p) });
    sb.control.setLatency({ ms: 50, pathPrefix: VMS });
    const search = scanning.setFilter('no-such-vm-anywhere');
    await until(() => sb.control.requests({ pathPrefix: VMS }).length >= 3, 'three pages requested');
    const clearing = scanning.setFilter(undefined);
    await search;
    sb.control.setLatency(null);
    await clearing;
    assert.equal(scanning.filter, undefined);
    assert.equal(scanning.items.length, 100, 'the first page of the unfiltered list');
    const filtered = (): RecordedRequest[] => sb.control.requests({ pathPrefix: VMS }).filter((r) => new URLSearchParams(r.query).has('name'));
    await until(() => filtered().at(-1)?.clientClosedEarly === true, 'the sandbox saw the client close the aborted request');
    assert.ok(filtered().slice(0, -1).every((r) => r.status === 200 && !r.clientClosedEarly), 'only the page in flight was cut');
    const count = filtered().length;
    await list.ensureLoaded(); // another, unrelated request round trip: the scan did not go on meanwhile
    assert.equal(filtered().length, count);
    assert.equal(progress.at(-1)?.done, true, 'the progress message was ended');
  });
});

describe('console/pager: one load in flight per collection', function () {
  this.timeout(60_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  for (const profile of ['contract', 'production'] as const) {
    it(`${profile}: expand, repeated expand and "Load more…" during a slow first page send one request`, async () => {
      const sb = await fx.sandbox({ profile, vmCount: 250 });
      const client = fx.client(sb);
      await client.auth.signIn();
      sb.control.clearRequests();
      sb.control.setLatency({ ms: 200, pathPrefix: VMS });
      const list = vmList(client);
      const loads = [list.ensureLoaded(), list.ensureLoaded(), list.loadMore(), list.ensureLoaded()];
      assert.equal(list.loading, true);
      await Promise.all(loads);
      assert.equal(sb.control.requests({ pathPrefix: VMS }).length, 1);
      assert.equal(list.items.length, 100);
      sb.control.setLatency(null);
      await Promise.all([list.loadMore(), list.loadMore()]);
      assert.deepEqual(offsets(sb.control.requests({ pathPrefix: VMS })), [0, 100], '"Load more…" clicked twice: one request for the second page');
      assert.equal(list.items.length, 200);
    });

    it(`${profile}: refresh during a slow load aborts the first request (the server sees the client leave) and sends one request per page`, async () => {
      const sb = await fx.sandbox({ profile, vmCount: 30 });
      const client = fx.client(sb);
      await client.auth.signIn();
      sb.control.clearRequests();
      sb.control.setLatency({ ms: 400, pathPrefix: VMS });
      const list = vmList(client);
      const first = list.ensureLoaded();
      await until(() => sb.control.requests({ pathPrefix: VMS }).length === 1, 'the first request reached the server');
      const second = list.refresh();
      await Promise.all([first, second]);
      const seen = sb.control.requests({ pathPrefix: VMS });
      assert.equal(seen.length, 2, 'the aborted request and the refresh: nothing else');
      await until(() => sb.control.requests({ pathPrefix: VMS })[0]?.clientClosedEarly === true, 'the sandbox saw the client close the first request');
      assert.equal(seen[1]?.clientClosedEarly, false);
      assert.equal(seen[1]?.status, 200);
      assert.equal(list.items.length, 30, 'the refresh loaded the page once, not twice');
      assert.equal(new Set(list.items.map((i) => i.id)).size, 30);
      assert.equal(list.error, undefined, 'the aborted load left no error behind');
    });
  }

  it('a collapse (cancel) aborts the load; the next expand asks again', async () => {
    const sb = await fx.sandbox({ vmCount: 10 });
    const client = fx.client(sb);
    await client.auth.signIn();
    sb.control.clearRequests();
    sb.control.setLatency({ ms: 300, pathPrefix: VMS });
    const list = vmList(client);
    const load = list.ensureLoaded();
    await until(() => sb.control.requests({ pathPrefix: VMS }).length === 1, 'the request reached the server');
    list.cancel();
    await load;
    assert.equal(list.loaded, false);
    assert.equal(list.loading, false);
    await until(() => sb.control.requests({ pathPrefix: VMS })[0]?.clientClosedEarly === true, 'the server saw the client leave');
    sb.control.setLatency(null);
    await list.ensureLoaded();
    assert.equal(list.items.length, 10);
    assert.equal(sb.control.requests({ pathPrefix: VMS }).length, 2);
  });

  it('a failed load keeps the pages loaded before it and records a typed error; the next "Load more…" tries again', async () => {
    const sb = await fx.sandbox({ vmCount: 150 });
    const client = fx.client(sb, { retry: { attempts: 1 } });
    const list = vmList(client);
    await list.ensureLoaded();
    sb.control.burst({ status: 500, count: 1, pathPrefix: VMS });
    await list.loadMore();
    assert.equal(list.items.length, 100);
    assert.equal((list.error as { kind?: string }).kind, 'api');
    assert.equal(list.nextOffset, 100);
    await list.loadMore();
    assert.equal(list.error, undefined);
    assert.equal(list.items.length, 150);
  });
});

describe('console/pager against a stub server', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('a server that ignores offset (the same full page every time) ends instead of looping', async () => {
    const page = Array.from({ length: 100 }, (_, i) => ({ id: `vm-${i}`, name: `vm-${i}` }));
    const stub = await fx.stub((req, res) => (req.path === AUTH_PATH ? res.end(fakeJwt(jwtClaims())) : json(res, 200, page)));
    const client = fx.client({ consoleUrl: stub.url, credentials: { patId: 'i', patSecret: 's', apiKey: '' } } as unknown as Sandbox);
    const list = vmList(client);
    await list.ensureLoaded();
    assert.equal(list.nextOffset, 100, 'a full page offers more');
    await list.loadMore();
    assert.equal(list.nextOffset, undefined, 'the same items again: the end');
    assert.equal(list.items.length, 100);
    assert.equal(stub.requests.filter((r) => r.path !== AUTH_PATH).length, 2);
  });

  it('a fetch that throws a CancelledError of its own leaves the list loadable', async () => {
    let calls = 0;
    const list = new PagedList<{ id: string }>({
      fetch: () => (++calls === 1 ? Promise.reject(new CancelledError()) : Promise.resolve({ items: [{ id: 'a' }], total: 1, partial: false, nextOffset: undefined })),
      idOf: (i) => i.id,
    });
    await list.ensureLoaded();
    assert.equal(list.loaded, false);
    assert.equal(list.error, undefined);
    await list.ensureLoaded();
    assert.deepEqual(list.items, [{ id: 'a' }]);
  });
});

describe('console/pager: idle()', () => {
  it('waits for the load that replaced the one in flight (a refresh during an expand)', async () => {
    const answers: Array<(page: { items: Array<{ id: string }>; total: number; partial: boolean; nextOffset: undefined }) => void> = [];
    const list = new PagedList<{ id: string }>({
      fetch: ({ signal }) => new Promise((resolve, reject) => {
        answers.push(resolve);
        signal.addEventListener('abort', () => reject(new CancelledError()), { once: true });
      }),
      idOf: (i) => i.id,
    });
    const expand = list.ensureLoaded().then(() => list.idle()).then(() => list.items.map((i) => i.id));
    const refresh = list.refresh();
    assert.equal(answers.length, 2, 'the refresh asked again (the first was aborted)');
    answers[1]?.({ items: [{ id: 'fresh' }], total: 1, partial: false, nextOffset: undefined });
    await refresh;
    assert.deepEqual(await expand, ['fresh'], 'the expand shows the refreshed page, not an empty list');
  });
});

describe('console/pager: upsert and remove', () => {
  const page = (ids: string[], nextOffset?: number) => ({ items: ids.map((id) => ({ id })), total: undefined, partial: false, nextOffset });

  it('a resource created before the first load is shown first, and the first page still loads without listing it twice', async () => {
    const list = new PagedList<{ id: string }>({ fetch: () => Promise.resolve(page(['a', 'new', 'b'])), idOf: (i) => i.id });
    list.upsert({ id: 'new' });
    assert.equal(list.loaded, false);
    await list.ensureLoaded();
    assert.deepEqual(list.items.map((i) => i.id), ['new', 'a', 'b']);
  });

  it('a resource created while a page is on its way is not listed twice', async () => {
    let answer: (p: ReturnType<typeof page>) => void = () => undefined;
    const list = new PagedList<{ id: string }>({ fetch: () => new Promise((resolve) => (answer = resolve)), idOf: (i) => i.id });
    const loading = list.ensureLoaded();
    list.upsert({ id: 'new' });
    answer(page(['new', 'a']));
    await loading;
    assert.deepEqual(list.items.map((i) => i.id), ['new', 'a']);
  });

  it('remove drops the item and counts the total down', async () => {
    const list = new PagedList<{ id: string }>({ fetch: () => Promise.resolve({ ...page(['a', 'b']), total: 2 }), idOf: (i) => i.id });
    await list.ensureLoaded();
    assert.equal(list.remove('a'), true);
    assert.equal(list.remove('zzz'), false);
    assert.deepEqual(list.items.map((i) => i.id), ['b']);
    assert.equal(list.total, 1);
  });
});
