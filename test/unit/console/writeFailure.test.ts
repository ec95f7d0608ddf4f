import assert from 'node:assert/strict';
import { ApiError, AuthError, NetworkError, OutcomeUnknownError, RateLimitError, StreamStalledError, TimeoutError } from '../../../src/core/errors';
import { presentError } from '../../../src/core/presentError';
import { writeFailureActions } from '../../../src/features/resources/writeFailure';

/** What a write that failed before its activity id came back offers (the Cloud view's error message). */
describe('console writes: the next steps of a failed write', () => {
  const actions = (error: unknown): string[] => writeFailureActions(error, presentError(error).actions);

  it('a connection broken after sending (outcome unknown) offers the Activities view, never Retry', () => {
    const error = new OutcomeUnknownError('The connection broke after POST /api/compute/v1/virtual-machines was sent', 'POST /api/compute/v1/virtual-machines', 'ECONNRESET');
    assert.deepEqual(actions(error), ['openActivities', 'showLog']);
  });

  it('a write that provably never left, or that the server refused, may be retried on request', () => {
    assert.ok(actions(new NetworkError('connection refused', 'ECONNREFUSED')).includes('retry'));
    assert.ok(actions(new TimeoutError('connect timeout', 'connect', 10_000)).includes('retry'));
    assert.ok(actions(new ApiError({ status: 503, message: 'unavailable' })).includes('retry'));
    assert.ok(actions(new RateLimitError({ status: 429, message: 'slow down', retryAfterMs: 2_000 })).includes('retry'));
  });

  it('a timeout after the request was sent offers no Retry (it may have been applied)', () => {
    assert.ok(!actions(new TimeoutError('no answer', 'first_byte', 60_000)).includes('retry'));
    assert.ok(!actions(new StreamStalledError('silent', 60_000)).includes('retry'));
  });

  it('a rejected token offers Sign In; anything unknown offers the log only', () => {
    assert.deepEqual(actions(new AuthError('rejected', { reason: 'rejected', secretName: 'console access token' })), ['signIn', 'showLog']);
    assert.deepEqual(actions(new Error('boom')), ['showLog']);
  });
});
