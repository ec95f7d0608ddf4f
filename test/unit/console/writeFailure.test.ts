import assert from 'node:assert/strict';
import { findWriteActivities, mayBeWrite, CLOCK_SKEW_MS } from '../../../src/core/console/activities/writes';
import type { Activity } from '../../../src/core/console/types';
import { ApiError, AuthError, ForbiddenError, MalformedResponseError, NetworkError, NotFoundError, OutcomeUnknownError, RateLimitError, StreamStalledError, TimeoutError, UnsafePathIdError, ValidationError } from '../../../src/core/errors';
import { presentError } from '../../../src/core/presentError';
import { isErrorAction, unknownOutcomeReason, writeFailureActions, type WriteFailureAction } from '../../../src/features/resources/writeFailure';
import { captureLogger, Fixtures } from './helpers';

/** What a write that failed before its activity id came back offers (the Cloud view's error message). */
describe('console writes: the next steps of a failed write', () => {
  const actions = (error: unknown): string[] => writeFailureActions(error, presentError(error).actions);
  const UNKNOWN = ['openActivities', 'sendAgain', 'showLog'];

  it('a connection broken after sending (outcome unknown) offers the Activities view and a confirmed second attempt, never Retry', () => {
    const error = new OutcomeUnknownError('The connection broke after POST /api/compute/v1/virtual-machines was sent', 'POST /api/compute/v1/virtual-machines', 'ECONNRESET');
    assert.deepEqual(actions(error), UNKNOWN);
  });

  // Issue 24, item 4: a 500/503 may follow a created activity; Retry re-sent it without asking.
  it('a 500 or 503 after a write is an unknown outcome: no Retry, a new confirmation before any new attempt', () => {
    for (const status of [500, 502, 503, 504]) {
      const error = new ApiError({ status, message: 'unavailable' });
      assert.deepEqual(actions(error), UNKNOWN, `HTTP ${status}`);
      assert.match(unknownOutcomeReason(error), new RegExp(`HTTP ${status}`));
    }
  });

  it('an unknown network failure or an unreadable answer is an unknown outcome too', () => {
    assert.deepEqual(actions(new NetworkError('socket closed', undefined)), UNKNOWN);
    assert.deepEqual(actions(new NetworkError('reset', 'ECONNRESET')), UNKNOWN);
    assert.deepEqual(actions(new MalformedResponseError('no Location')), UNKNOWN);
    assert.deepEqual(actions(new TimeoutError('no answer', 'first_byte', 60_000)), UNKNOWN);
    assert.deepEqual(actions(new StreamStalledError('silent', 60_000)), UNKNOWN);
    assert.deepEqual(actions(new Error('boom')), UNKNOWN);
  });

  it('a write that provably never left, or that the server refused, may be retried on request', () => {
    assert.ok(actions(new NetworkError('connection refused', 'ECONNREFUSED')).includes('retry'));
    assert.ok(actions(new TimeoutError('connect timeout', 'connect', 10_000)).includes('retry'));
    assert.ok(actions(new RateLimitError({ status: 429, message: 'slow down', retryAfterMs: 2_000 })).includes('retry'));
    for (const status of [409, 422]) assert.deepEqual(actions(new ApiError({ status, message: 'conflict' })), ['retry', 'showLog'], `HTTP ${status}`);
    for (const error of [new ApiError({ status: 400, message: 'bad' }), new ForbiddenError({ status: 403, message: 'no' }), new NotFoundError({ status: 404, message: 'gone' })]) {
      assert.ok(!actions(error).includes('sendAgain'), String(error.status));
    }
  });

  it('a write refused before sending offers neither Retry nor a second attempt', () => {
    assert.deepEqual(actions(new UnsafePathIdError('bad id', 'id')), ['showLog']);
    assert.deepEqual(actions(new ValidationError('bad input', 'cpu')), ['showLog']);
  });

  it('a rejected token offers Sign In', () => {
    assert.deepEqual(actions(new AuthError('rejected', { reason: 'rejected', secretName: 'console access token', status: 401 })), ['signIn', 'showLog']);
  });

  it('the shared error surface runs Retry, Sign In and Show Log; Open Activities and Send Again are the write flow\'s own buttons', () => {
    const all: WriteFailureAction[] = ['openActivities', 'retry', 'sendAgain', 'signIn', 'showLog'];
    assert.deepEqual(all.filter(isErrorAction), ['retry', 'signIn', 'showLog']);
    const refused = writeFailureActions(new ApiError({ status: 409, message: 'conflict' }), presentError(new ApiError({ status: 409, message: 'conflict' })).actions);
    assert.deepEqual(refused.filter(isErrorAction), refused, 'a write that provably did not happen: every button is the surface\'s');
  });
});

describe('console writes: finding the activity of a write whose outcome is unknown', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());
  const START = Date.parse('2026-11-25T00:00:00Z');
  const activity = (over: Partial<Activity>): Activity => ({
    id: 'a1', description: "Delete virtual machine 'web-1'", type: 'ComputeActivity', tenantId: undefined, creationDate: new Date(START + 1_000).toISOString(),
    concernedItems: [{ type: 'virtual_machine', id: 'vm-1' }], state: { kind: 'waiting' }, raw: {}, ...over,
  });

  it('matches by target id or by name, only after the attempt started (with a margin for clock skew)', () => {
    const now = START + 10_000;
    assert.ok(mayBeWrite(activity({}), { targetId: 'vm-1', startedAt: START }, now));
    assert.ok(!mayBeWrite(activity({}), { targetId: 'vm-2', startedAt: START }, now));
    assert.ok(mayBeWrite(activity({ description: "Create virtual machine 'web-1'" }), { name: 'web-1', startedAt: START }, now));
    assert.ok(!mayBeWrite(activity({}), { name: 'other', startedAt: START }, now));
    assert.ok(!mayBeWrite(activity({ creationDate: new Date(START - CLOCK_SKEW_MS - 1).toISOString() }), { targetId: 'vm-1', startedAt: START }, now));
    for (const creationDate of [undefined, 'yesterday', '+275760-09-13T00:00:00Z', '1970-01-01T00:00:00Z']) {
      assert.ok(!mayBeWrite(activity({ creationDate }), { targetId: 'vm-1', startedAt: START }, now), String(creationDate));
    }
  });

  it('finds the activity of a create whose connection was reset after the sandbox applied it', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const client = fx.client(sb);
    await client.auth.signIn();
    sb.control.resetAfterApply({ method: 'POST', pathPrefix: '/api/compute', count: 1 });
    const startedAt = Date.now();
    await assert.rejects(client.perform('virtualMachines', 'create', { input: { name: 'lost-reply', cpu: 1, memoryGiB: 1 } }), OutcomeUnknownError);
    const found = await findWriteActivities((o) => client.activities.list(o), { name: 'lost-reply', startedAt }, { logger: captureLogger() });
    assert.equal(found.length, 1);
    assert.match(found[0]?.description ?? '', /lost-reply/);
    const none = await findWriteActivities((o) => client.activities.list(o), { name: 'never-sent', startedAt }, { logger: captureLogger() });
    assert.deepEqual(none, []);
  });

  it('gives no match (and logs) when the activity list cannot be read', async () => {
    const logger = captureLogger();
    const found = await findWriteActivities(() => Promise.reject(new NetworkError('down', 'ECONNREFUSED')), { targetId: 'vm-1', startedAt: START }, { logger });
    assert.deepEqual(found, []);
    assert.ok(logger.lines.some((l) => l.level === 'warn'));
  });
});
