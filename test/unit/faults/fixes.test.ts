// The bugs the fault matrix found, each pinned at the unit where it was fixed (the matrix cells
// named in each title fail without the fix).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthError, ForbiddenError, MalformedResponseError } from '../../../src/core/errors';
import { toApiError } from '../../../src/core/http/apiError';
import { Redactor } from '../../../src/core/http/redact';
import { serverRetryDelay } from '../../../src/core/http/retryAfter';
import { DEFAULT_RETRY } from '../../../src/core/http/transport';
import { presentError } from '../../../src/core/presentError';
import { NodeIndexStorage } from '../../../src/core/search';

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

  it('x disk full on the search index: a failed write leaves no temporary file behind (one per failed save before)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratus-index-'));
    try {
      // The index's name is taken by a folder: the write of the temporary file works, its rename fails.
      mkdirSync(join(dir, 'search-index.bin'));
      writeFileSync(join(dir, 'search-index.bin', 'keep'), 'x');
      const storage = new NodeIndexStorage(dir);
      for (let i = 0; i < 2; i++) await assert.rejects(storage.write('search-index.bin', new Uint8Array([1, 2, 3])));
      assert.deepEqual(readdirSync(dir), ['search-index.bin']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('edit x malformed: the unreadable-answer sentence ends with a period, so a suffix reads as its own sentence', () => {
    const error = new MalformedResponseError('POST /v1/chat/completions: event 4 of the stream is not valid JSON');
    assert.match(presentError(error).message, /is not valid JSON\.$/);
    assert.doesNotMatch(presentError(new MalformedResponseError('bad body.')).message, /\.\.$/);
  });
});
