import * as assert from 'node:assert/strict';
import { ApiError, AuthError, CancelledError, InterruptedError, NetworkError, NotFoundError, OutcomeUnknownError, RateLimitError, StreamStalledError, TimeoutError, ValidationError } from '../../../src/core/errors';
import { presentError, STRICT_SSL_NOTE, StrictSslNote } from '../../../src/core/presentError';

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

  it('names the parameter of a 400', () => {
    assert.match(presentError(new ApiError({ status: 400, message: 'temperature must be <= 2', param: 'temperature' })).message, /parameter `temperature`/);
  });

  it('a stall before any answer says nothing arrived, and claims no partial answer', () => {
    const presented = presentError(new StreamStalledError('stalled', 60_000));
    assert.match(presented.message, /before any of the answer arrived \(nothing for 60 s\)/);
    assert.doesNotMatch(presented.message, /kept|above|partial/i);
    assert.deepEqual(presented.actions, ['retry', 'showLog']);
  });

  it('an interrupted answer says it was cut off and why, distinct from an unreachable service, with Retry', () => {
    const reset = presentError(new InterruptedError('x', 'reset', { cause: new NetworkError('n', 'ECONNRESET') }));
    assert.match(reset.message, /cut off: the connection was reset \(ECONNRESET\) after part of it arrived/);
    assert.doesNotMatch(reset.message, /Cannot reach/);
    assert.deepEqual(reset.actions, ['retry', 'showLog']);
    assert.match(presentError(new InterruptedError('x', 'stalled')).message, /stopped arriving/);
    assert.match(presentError(new InterruptedError('x', 'ended')).message, /ended the stream before the answer was complete/);
    assert.equal(presentError(new InterruptedError('x', 'ended')).cancelled, false);
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

  // Fuzzing finding (issue 24): a 26-digit Retry-After showed "Retry in NaN s".
  it('never shows NaN for a wait out of range', () => {
    const now = Date.UTC(2030, 0, 1);
    for (const retryAfterMs of [1e28, Number.MAX_VALUE, Infinity, NaN, -1e20]) {
      const shown = presentError(new RateLimitError({ status: 429, message: 'slow down', retryAfterMs }, { now }), now);
      assert.doesNotMatch(shown.message, /NaN|Infinity/, String(retryAfterMs));
      assert.ok(shown.retryAfterSeconds === undefined || (Number.isInteger(shown.retryAfterSeconds) && shown.retryAfterSeconds <= 86_400));
    }
  });

  it('an unknown outcome says it was not sent again and offers no Retry', () => {
    const shown = presentError(new OutcomeUnknownError('t', 'DELETE host/x', undefined));
    assert.match(shown.message, /cannot tell whether/);
    assert.match(shown.message, /not sent again/);
    assert.ok(!shown.actions.includes('retry'));
  });

  it('offers only the shared actions: the transcription ones come from its own presenter', () => {
    const now = Date.UTC(2026, 0, 1);
    const errors = [
      new AuthError('x', { reason: 'missing', secretName: 'inference API key' }),
      new NotFoundError({ status: 404, message: 'nope', code: 'model_not_found', param: 'model' }),
      new ApiError({ status: 413, message: 'too large' }),
      new ApiError({ status: 400, message: 'bad', param: 'language' }),
      new ValidationError('bad', 'language'),
      new TimeoutError('t', 'first_byte', 1000),
      new RateLimitError({ status: 429, message: 'slow' }, { now }),
      new OutcomeUnknownError('t', 'POST host/x', undefined),
      'boom',
    ];
    for (const error of errors) {
      const actions = presentError(error, now).actions;
      assert.deepEqual(actions.filter((a) => a === 'openSizeSetting' || a === 'pickSpeechModel' || a === 'changeOptions'), [], String(error));
      assert.equal(new Set(actions).size, actions.length, 'each action once');
    }
  });
});

describe('core/presentError: the http.proxyStrictSSL note', () => {
  const certificate = (): NetworkError => new NetworkError('Cannot reach https://llm.example: self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN');

  it('is said once, with the first certificate failure while http.proxyStrictSSL is off', () => {
    const note = new StrictSslNote();
    assert.equal(note.for(new NetworkError('refused', 'ECONNREFUSED'), false), undefined, 'not for a failure that is no certificate one');
    assert.equal(note.for(certificate(), true), undefined, 'not while the setting is on (the default)');
    const first = note.for(certificate(), false);
    assert.equal(first, STRICT_SSL_NOTE);
    assert.match(first ?? '', /OS certificate store/);
    assert.match(first ?? '', /NODE_EXTRA_CA_CERTS/);
    assert.equal(note.for(certificate(), false), undefined, 'said once per session');
    assert.equal(new StrictSslNote().for(new NetworkError('x', 'ERR_TLS_CERT_ALTNAME_INVALID'), false), STRICT_SSL_NOTE, 'a host name mismatch is a certificate failure too');
  });

  it('leaves the message of the failure itself as it was', () => {
    assert.doesNotMatch(presentError(certificate()).message, /proxyStrictSSL/);
  });
});
