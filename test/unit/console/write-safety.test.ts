import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { ResourceKindSpec, WriteMethod } from '../../../src/core/console/catalog/kindSpecs';
import { createConsoleClient, type ConsoleClient } from '../../../src/core/console/index';
import { ApiError, OutcomeUnknownError } from '../../../src/core/errors';
import { provablyNotApplied } from '../../../src/core/http/writeSafety';
import { AUTH_PATH, Fixtures, fakeJwt, json, jwtClaims, type Stub, type StubHandler, type StubRequest } from './helpers';

// Issue 24, item 2: every console write creates an activity, so none of them (POST, PUT, PATCH,
// DELETE) is sent again once its bytes may have reached the server.
const METHODS: readonly WriteMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];
const COLLECTION = '/api/compute/v1/things';

const THINGS: ResourceKindSpec = {
  id: 'things',
  label: { singular: 'Thing', plural: 'Things' },
  icon: 'symbol-misc',
  collection: COLLECTION,
  item: '{collection}/{id}',
  presentation: { nameFields: ['name'], description: [], tooltip: [] },
  actions: METHODS.map((method) => ({
    id: method.toLowerCase(),
    label: method,
    method,
    target: method === 'POST' ? ('collection' as const) : ('item' as const),
    path: method === 'POST' ? '{collection}' : '{collection}/{id}',
    // A fixed body, so every method (DELETE too) has a body for the server to receive in full.
    body: { reason: 'write-safety test' },
  })),
};

const TARGET = { id: 'thing-1', name: 'Thing one', raw: { id: 'thing-1', name: 'Thing one' } };

describe('console writes: never sent again once they may have reached the server (each method)', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  /** A console whose PAT exchange works and whose write route does what `onWrite` says. */
  async function consoleStub(onWrite: (req: StubRequest, res: ServerResponse) => void): Promise<Stub> {
    const handler: StubHandler = (req, res) => {
      if (req.path === AUTH_PATH) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(fakeJwt(jwtClaims()));
        return;
      }
      onWrite(req, res);
    };
    return fx.stub(handler);
  }

  function client(stub: Stub, firstByteMs = 10_000): ConsoleClient {
    return fx.track(
      createConsoleClient({
        baseUrl: stub.url,
        pat: { id: async () => 'pat-id-fixture', secret: async () => 'pat-secret-fixture' },
        catalog: [THINGS],
        timeouts: { firstByteMs },
        retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 },
      }),
    );
  }

  const writes = (stub: Stub): StubRequest[] => stub.requests.filter((r) => r.path.startsWith(COLLECTION));

  for (const method of METHODS) {
    const perform = (c: ConsoleClient): Promise<unknown> =>
      c.perform('things', method.toLowerCase(), method === 'POST' ? {} : { target: TARGET });

    it(`${method}: the server receives the whole body, then the connection is reset: sent once, outcome unknown`, async () => {
      const stub = await consoleStub((_req, res) => res.socket?.destroy());
      await assert.rejects(perform(client(stub)), (e: unknown) => {
        assert.ok(e instanceof OutcomeUnknownError, String(e));
        assert.match(e.target, new RegExp(`^${method} `));
        assert.equal(provablyNotApplied(e), false);
        return true;
      });
      const seen = writes(stub);
      assert.equal(seen.length, 1, 'exactly one request reached the server');
      assert.equal(seen[0]?.method, method);
      assert.deepEqual(JSON.parse(seen[0]?.body ?? ''), { reason: 'write-safety test' });
    });

    it(`${method}: no response before the first-byte timeout: sent once, outcome unknown`, async () => {
      const stub = await consoleStub(() => undefined); // takes the whole request, never answers
      // The limit also covers the sign-in exchange before the write: 150 ms failed it on a loaded
      // machine (a sign-in error, not the write's timeout); 1 s still ends the unanswered write.
      await assert.rejects(perform(client(stub, 1_000)), (e: unknown) => {
        assert.ok(e instanceof OutcomeUnknownError, String(e));
        assert.equal(provablyNotApplied(e), false);
        return true;
      });
      assert.equal(writes(stub).length, 1, 'exactly one request reached the server');
    });

    it(`${method}: a 503 (the activity may exist) is not sent again; a 429 (refused) is`, async () => {
      let n = 0;
      const stub = await consoleStub((_req, res) => {
        n++;
        if (n === 1) json(res, 429, { error: { status: '429 Too Many Requests', message: 'Too Many Requests' } }, { 'retry-after': '0' });
        else json(res, 503, { error: { message: 'unavailable' } });
      });
      await assert.rejects(perform(client(stub)), (e: unknown) => {
        assert.ok(e instanceof ApiError && e.status === 503, String(e));
        assert.equal(provablyNotApplied(e), false);
        return true;
      });
      assert.equal(writes(stub).length, 2, 'the 429 was retried once, the 503 never');
    });
  }
});

describe('console writes against the sandbox: a DELETE applied, then reset', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('sends one DELETE, reports the outcome as unknown, and the one activity is the one that ran', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const c = fx.client(sb);
    const victim = (await c.list('virtualMachines', { limit: 1 })).items[0];
    assert.ok(victim);
    const before = sb.control.snapshot().counts;
    sb.control.resetAfterApply({ method: 'DELETE', pathPrefix: '/api/compute', count: 5 });
    await assert.rejects(c.perform('virtualMachines', 'delete', { target: victim }), OutcomeUnknownError);
    assert.equal(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'DELETE').length, 1);
    assert.equal(sb.control.snapshot().counts.activities, before.activities + 1);
  });
});
