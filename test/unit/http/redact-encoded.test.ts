import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createConsoleClient } from '../../../src/core/console/index';
import { isStratusError } from '../../../src/core/errors';
import { toApiError } from '../../../src/core/http/apiError';
import { encodedForms, REDACTED, Redactor } from '../../../src/core/http/redact';
import { presentError } from '../../../src/core/presentError';
import { AUTH_PATH, Fixtures, json } from '../console/helpers';

// Fuzzing finding (issue 24): a server echoing a secret in its error body leaked its base64,
// base64url and URL-encoded forms (the redactor matched the literal value only), and the core
// never registered the PAT, so a raw PAT secret echoed by the exchange reached the message.
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

/** What a careless server may send back: the secret as is and in every encoding, alone or inside more. */
function echoes(id: string, secret: string): string[] {
  return [
    secret,
    b64(secret),
    b64url(secret),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    b64(`${id}:${secret}`),
    b64url(JSON.stringify({ id, secret })),
    b64(`x${secret}`),
    b64(`xy${secret}yx`),
  ];
}

/** The parts that must never survive: each encoding of the secret (whole, or the run inside a longer value). */
function leaks(text: string, secret: string): string[] {
  return encodedForms(secret).filter((form) => text.includes(form));
}

function messageFor(redactor: Redactor, body: string): string {
  const error = toApiError({ status: 400, headers: {}, bodyText: JSON.stringify({ error: { message: body } }), target: 'POST host/api', secretName: undefined, redact: (t) => redactor.redact(t) });
  return `${error.message}\n${presentError(error).message}`;
}

describe('http/redact: encoded forms of a secret', () => {
  const ID = 'pat-id-fixture';
  const SECRET = 'pat-secret-fixture/ä+1';

  for (const [i, echo] of echoes(ID, SECRET).entries()) {
    it(`removes echo form #${i} of the secret from ApiError and presentError`, () => {
      const r = new Redactor();
      r.add(SECRET);
      const text = messageFor(r, `invalid credential ${echo} (see docs)`);
      assert.deepEqual(leaks(text, SECRET), [], text);
      assert.ok(text.includes(REDACTED));
    });
  }

  it('property: no encoding of any secret survives, whatever surrounds it', () => {
    const secret = fc
      .string({ minLength: 8, maxLength: 40, unit: fc.constantFrom(...'abcXYZ019-_.~+/=:%"\\ äé€😀'.split(/(?:)/u)) })
      .filter((s) => s.trim() === s && !'[REDACTED]'.includes(s) && !s.includes('REDACTED'));
    fc.assert(
      fc.property(secret, fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), fc.nat(8), (s, before, after, pick) => {
        const r = new Redactor();
        r.add(ID);
        r.add(s);
        const echo = echoes(ID, s)[pick] ?? s;
        const text = messageFor(r, `${before}${echo}${after}`);
        assert.deepEqual(leaks(text, s), [], `${JSON.stringify(s)} in ${JSON.stringify(text)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a rotating token\'s encoded forms only while it is current', () => {
    const r = new Redactor();
    r.setSlot('jwt', 'token-fixture-one');
    assert.equal(r.redact(b64('token-fixture-one')), REDACTED);
    r.setSlot('jwt', 'token-fixture-two');
    assert.equal(r.redact(b64('token-fixture-two')), REDACTED);
    assert.equal(r.redact('token-fixture-one'), 'token-fixture-one');
  });

  it('setting a slot to the value it holds keeps the needles (each request sets the current token again); a new value or a clear replaces them', () => {
    const r = new Redactor();
    const needles = (): string[] => (r as unknown as { secrets(): string[] }).secrets();
    r.add('pat-secret-fixture');
    r.setSlot('jwt', 'token-fixture-one');
    const built = needles();
    r.setSlot('jwt', 'token-fixture-one');
    // Before: rebuilt (flattened, deduplicated, sorted) after every request.
    assert.equal(needles(), built);
    r.setSlot('jwt', 'token-fixture-two');
    assert.notEqual(needles(), built);
    assert.ok(needles().includes('token-fixture-two') && !needles().includes('token-fixture-one'));
    assert.equal(r.redact('token-fixture-two pat-secret-fixture'), `${REDACTED} ${REDACTED}`);
    const two = needles();
    r.setSlot('other', undefined); // nothing to clear: the needles stand
    assert.equal(needles(), two);
    r.setSlot('jwt', undefined);
    assert.equal(r.redact('token-fixture-two'), 'token-fixture-two');
    assert.equal(r.redact('pat-secret-fixture'), REDACTED);
  });
});

describe('console: the core registers the PAT where it receives it', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('a PAT exchange echoing the raw and encoded PAT secret shows none of it (no platform store involved)', async () => {
    const id = 'pat-id-fixture';
    const secret = 'pat-secret-fixture-0001';
    const stub = await fx.stub((req, res) => {
      if (req.path !== AUTH_PATH) return json(res, 404, {});
      json(res, 400, { error: { message: `bad PAT ${secret} / ${b64(`${id}:${secret}`)} / ${b64url(secret)} / ${encodeURIComponent(secret)} / ${id}` } });
    });
    const client = fx.track(createConsoleClient({ baseUrl: stub.url, pat: { id: async () => id, secret: async () => secret } }));
    await assert.rejects(client.auth.signIn(), (e: unknown) => {
      assert.ok(isStratusError(e));
      const text = `${e.message}\n${presentError(e).message}`;
      assert.deepEqual(leaks(text, secret), [], text);
      assert.ok(!text.includes(id), text);
      return true;
    });
  });
});
