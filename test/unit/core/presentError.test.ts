import * as assert from 'node:assert/strict';
import { ApiError, AuthError, CancelledError, NetworkError, NotFoundError, RateLimitError, StreamStalledError, TimeoutError, ValidationError } from '../../../src/core/errors';
import { presentError } from '../../../src/core/presentError';

describe('core/presentError', () => {
  it('offers to set the API key when it is missing or rejected', () => {
    assert.deepEqual(presentError(new AuthError('x', { reason: 'missing', secretName: 'inference API key' })).actions, ['setApiKey']);
    const rejected = presentError(new AuthError('x', { reason: 'rejected', secretName: 'inference API key', status: 401 }));
    assert.match(rejected.message, /rejected \(401\)/);
    assert.ok(rejected.actions.includes('setApiKey'));
  });

  it('offers to sign in when the console token is the problem', () => {
    assert.deepEqual(presentError(new AuthError('x', { reason: 'missing', secretName: 'console access token' })).actions, ['signIn']);
  });

  it('offers a model pick for model_not_found and a 400 on `model`', () => {
    assert.deepEqual(presentError(new NotFoundError({ status: 404, message: 'nope', code: 'model_not_found', param: 'model' })).actions, ['pickModel']);
    assert.ok(presentError(new ApiError({ status: 400, message: 'bad', param: 'model' })).actions.includes('pickModel'));
  });

  it('says when to retry after a rate limit', () => {
    const now = Date.UTC(2026, 0, 1);
    const presented = presentError(new RateLimitError({ status: 429, message: 'slow down', retryAfterMs: 42_500 }, { now }), now);
    assert.equal(presented.retryAfterSeconds, 43);
    assert.match(presented.message, /Retry in 43 s/);
    assert.deepEqual(presented.actions, ['retry']);
  });

  it('names the parameter of a 400 and keeps the partial answer on a stall', () => {
    assert.match(presentError(new ApiError({ status: 400, message: 'temperature must be <= 2', param: 'temperature' })).message, /parameter `temperature`/);
    assert.match(presentError(new StreamStalledError('stalled', 60_000)).message, /partial answer is kept/);
  });

  it('points at the network settings for timeouts and connection failures', () => {
    assert.ok(presentError(new TimeoutError('t', 'first_byte', 1000)).actions.includes('openSettings'));
    assert.match(presentError(new NetworkError('n', 'ECONNREFUSED')).message, /ECONNREFUSED/);
    assert.deepEqual(presentError(new ValidationError('No base URL', 'stratus.inference.baseUrl')).actions, ['openSettings']);
  });

  it('is silent on cancellation and safe on anything thrown', () => {
    assert.equal(presentError(new CancelledError()).cancelled, true);
    assert.match(presentError('boom').message, /Unexpected error: boom/);
    assert.match(presentError(new Error('bad thing')).message, /bad thing/);
  });
});
