import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Fixtures } from '../console/helpers';
import { checkAsync } from '../properties/harness';
import { holdingConsole } from './holdingConsole';
import { rawHost } from './rawHost';

type Id = number | string;
/** A plain call (direct), one with other `_meta` (the SDK's path), one with a progress token (direct). */
type Via = 'plain' | 'otherMeta' | 'progress';
/** A cancel as the SDK takes it, with a reason, with a reason that is no string (refused), its id as a string, no id. */
type CancelForm = 'plain' | 'reason' | 'badReason' | 'asString' | 'noId';
type Op = { t: 'call'; id: Id; via: Via } | { t: 'cancel'; id: Id; form: CancelForm } | { t: 'refused'; id: Id } | { t: 'ping' };

const cancelParams = (id: Id, form: CancelForm): Record<string, unknown> =>
  form === 'plain' ? { requestId: id } : form === 'reason' ? { requestId: id, reason: 'stop' } : form === 'badReason' ? { requestId: id, reason: 5 } : form === 'asString' ? { requestId: String(id) } : {};

/**
 * What the SDK does with these ops, every call's console page held until the end: a call with an
 * id takes the place of the one before it (which no cancel reaches then), a call answered at once
 * (refused arguments) leaves its id with no running call, and a cancel the SDK's schema takes, of a
 * truthy id, aborts the call in its place.
 */
function expected(ops: readonly Op[]): Record<string, 'answered' | 'aborted'> {
  const latest = new Map<Id, number>();
  const result: Record<string, 'answered' | 'aborted'> = {};
  let page = 0;
  for (const op of ops) {
    if (op.t === 'call') {
      result[++page] = 'answered';
      latest.set(op.id, page);
    } else if (op.t === 'refused') latest.delete(op.id);
    else if (op.t === 'cancel' && op.form !== 'badReason') {
      const requestId = cancelParams(op.id, op.form).requestId as Id | undefined;
      const target = requestId ? latest.get(requestId) : undefined;
      if (target !== undefined) result[target] = 'aborted';
    }
  }
  return result;
}

describe('mcp server: cancellation of direct calls, as a property (ids reused, calls on either path, cancels the SDK takes or refuses)', function () {
  this.timeout(60_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('every sequence of calls, cancels, refused calls and pings: each call answered or aborted as the SDK does it, on both paths', async () => {
    const { stub, held, aborted, until } = await holdingConsole(fx);

    /** Runs `ops` on a fresh server (with the direct path or without), each call's page being its number. */
    async function outcomes(direct: boolean, ops: readonly Op[]): Promise<Record<string, 'answered' | 'aborted'>> {
      held.clear();
      aborted.clear();
      const host = await rawHost({ STRATUS_CONSOLE_BASE_URL: stub.url, STRATUS_PAT_ID: 'id', STRATUS_PAT_SECRET: 'stub-secret-not-real' }, direct);
      const ids = new Map<string, Id>();
      let page = 0;
      let pings = 0;
      const ping = async (): Promise<void> => void (await host.exchange(`{"jsonrpc":"2.0","id":"ping-${++pings}","method":"ping"}`));
      try {
        for (const op of ops) {
          if (op.t === 'call') {
            const limit = String(++page);
            ids.set(limit, op.id);
            const meta = op.via === 'otherMeta' ? { _meta: { 'example.com/trace': 'x' } } : op.via === 'progress' ? { _meta: { progressToken: 't' } } : {};
            await host.send({ jsonrpc: '2.0', id: op.id, method: 'tools/call', params: { name: 'list_resources', arguments: { kind: 'virtualMachines', limit: page }, ...meta } });
            await until(() => held.has(limit));
          } else if (op.t === 'cancel') {
            await host.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: cancelParams(op.id, op.form) });
            await ping();
          } else if (op.t === 'refused') {
            await host.exchange(JSON.stringify({ jsonrpc: '2.0', id: op.id, method: 'tools/call', params: { name: 'list_resources', arguments: { kind: 'virtualMachines', limit: 0 } } }));
          } else await ping();
        }
        const want = expected(ops);
        await until(() => Object.entries(want).every(([limit, outcome]) => outcome === 'answered' || aborted.has(limit)));
        // One page at a time, so that a later answer with the same id does not hide this one.
        const result: Record<string, 'answered' | 'aborted'> = {};
        const answeredPage = (limit: string): boolean => {
          const answer = host.answers.get(ids.get(limit)) as { result?: { content?: Array<{ text: string }> } } | undefined;
          return (answer?.result?.content?.[0]?.text ?? '').includes(`"vm-${limit}"`);
        };
        for (const [limit, release] of held) {
          if (!aborted.has(limit)) release();
          while (!answeredPage(limit) && !aborted.has(limit)) await new Promise((resolve) => setImmediate(resolve));
          result[limit] = answeredPage(limit) ? 'answered' : 'aborted';
        }
        // Nothing of a finished, cancelled or aborted call is kept.
        const running = (host.mcp.server.server as unknown as { _requestHandlerAbortControllers: Map<unknown, AbortController> })._requestHandlerAbortControllers;
        while (running.size > 0) await new Promise((resolve) => setImmediate(resolve));
        return result;
      } finally {
        await host.close();
      }
    }

    const id = fc.constantFrom<Id>(1, 2, 'a', 0, '');
    const op: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.record({ t: fc.constant('call' as const), id, via: fc.constantFrom<Via>('plain', 'plain', 'otherMeta', 'progress') }), weight: 4 },
      { arbitrary: fc.record({ t: fc.constant('cancel' as const), id, form: fc.constantFrom<CancelForm>('plain', 'reason', 'badReason', 'asString', 'noId') }), weight: 3 },
      { arbitrary: fc.record({ t: fc.constant('refused' as const), id }), weight: 1 },
      { arbitrary: fc.constant({ t: 'ping' as const }), weight: 1 },
    );
    let directCalls = 0;
    await checkAsync(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 7 }), async (ops) => {
        const want = expected(ops);
        assert.deepEqual(await outcomes(false, ops), want, 'the SDK path, against the model');
        assert.deepEqual(await outcomes(true, ops), want, 'the direct path');
        directCalls += ops.filter((o) => o.t === 'call' && o.via !== 'otherMeta').length;
      }),
      25,
    );
    // Not vacuous: direct calls were made (and cancelled: the model aborts some of them).
    assert.ok(directCalls > 10, `direct calls: ${directCalls}`);
  });
});
