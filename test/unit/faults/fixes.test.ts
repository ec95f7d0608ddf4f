// The bugs the fault matrix found, each pinned at the unit where it was fixed (the matrix cells
// named in each title fail without the fix).
import assert from 'node:assert/strict';
import { AuthError, ForbiddenError } from '../../../src/core/errors';
import { toApiError } from '../../../src/core/http/apiError';
import { Redactor } from '../../../src/core/http/redact';
import { serverRetryDelay } from '../../../src/core/http/retryAfter';
import { DEFAULT_RETRY } from '../../../src/core/http/transport';
import { presentError } from '../../../src/core/presentError';

describe('fault matrix findings, fixed', () => {
  it('x 429 (no Retry-After): a 429 that leaves request budget is not told to wait for the budget reset', () => {
    const now = Date.parse('2026-03-02T09:00:10Z');
    const reset = String(Date.parse('2026-03-02T10:00:00Z') / 1000);
    assert.equal(serverRetryDelay({ 'x-ratelimit-reset-requests': reset, 'x-ratelimit-remaining-requests': '120' }, now), undefined);
    assert.equal(serverRetryDelay({ 'x-ratelimit-reset-requests': reset, 'x-ratelimit-remaining-requests': '0' }, now), 3_590_000);
    assert.equal(serverRetryDelay({ 'x-ratelimit-reset-requests': '50' }, now), 50_000, 'no remaining count: the reset is the wait');
    assert.equal(serverRetryDelay({ 'retry-after': '2', 'x-ratelimit-remaining-requests': '120' }, now), 2_000, 'Retry-After still wins');
  });

  it('x 502 and 504: gateway errors are retried like 500 and 503', () => {
    assert.deepEqual([...DEFAULT_RETRY.statuses].sort(), [429, 500, 502, 503, 504]);
  });

  it('secrets sweep: type, code, param and request id of an error body are redacted (param was shown verbatim)', () => {
    const redactor = new Redactor();
    redactor.add('sk-fixture-secret-123');
    const error = toApiError({
      status: 400,
      headers: { 'x-request-id': 'req sk-fixture-secret-123' },
      bodyText: JSON.stringify({ error: { message: 'bad', type: 'sk-fixture-secret-123', code: 'sk-fixture-secret-123', param: 'Bearer sk-fixture-secret-123' } }),
      target: 'POST host/v1/chat/completions',
      secretName: undefined,
      redact: (t) => redactor.redact(t),
    });
    const everything = `${JSON.stringify(error, Object.getOwnPropertyNames(error))} ${presentError(error).message}`;
    assert.doesNotMatch(everything, /sk-fixture-secret-123/);
    assert.match(presentError(error).message, /parameter `Bearer \[REDACTED\]`/);
  });

  it('x 403 on the PAT exchange: the message names the status it got, and no doubled period', () => {
    const refused = new AuthError('The console rejected the personal access token (HTTP 403).', { reason: 'rejected', secretName: 'personal access token', status: 403 });
    assert.match(presentError(refused).message, /was rejected \(403\)/);
    const forbidden = new ForbiddenError({ status: 403, message: 'GET host/api returned HTTP 403: Permission denied.' });
    assert.doesNotMatch(presentError(forbidden).message, /\.\./);
  });
});
