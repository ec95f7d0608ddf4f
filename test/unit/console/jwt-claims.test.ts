import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConsoleAuth } from '../../../src/core/console/auth/session';
import { decodeClaims, MAX_LIFETIME_MS, tokenTimes } from '../../../src/core/console/auth/accessToken';
import type { SessionEvent } from '../../../src/core/console/types';
import { captureLogger, fakeJwt } from './helpers';

// Fuzzing finding (issue 24): an `exp` of 8.64e12 or more (sent in microseconds) made sign-in
// reject with an untyped RangeError ("Invalid time value"); the token was cached, no event fired.
describe('console access token: out-of-range exp and iat claims', () => {
  const NOW = Date.UTC(2026, 10, 25, 0, 0, 0);

  async function signIn(claims: Record<string, unknown>): Promise<{ events: SessionEvent[]; expiresAt: Date }> {
    const auth = new ConsoleAuth({
      pat: { id: async () => 'pat-id-fixture', secret: async () => 'pat-secret-fixture' },
      exchange: async () => fakeJwt({ userId: 'user-1', scope: { id: 'tenant-1' }, ...claims }),
      logger: captureLogger(),
      now: () => NOW,
    });
    const events: SessionEvent[] = [];
    auth.onDidChangeSession((e) => events.push(e));
    const session = await auth.signIn();
    return { events, expiresAt: session.expiresAt };
  }

  for (const exp of [8.64e12, 1_764_028_800_000_000, 1e300, Number.MAX_SAFE_INTEGER, '8640000000000', -1, 1_764_028_800_000]) {
    it(`signs in and fires the session event for exp ${String(exp)}`, async () => {
      const { events, expiresAt } = await signIn({ exp, iat: NOW / 1000 });
      assert.equal(events.length, 1);
      assert.equal(events[0]?.type, 'signedIn');
      assert.ok(Number.isFinite(expiresAt.getTime()));
      assert.ok(expiresAt.getTime() - NOW <= MAX_LIFETIME_MS);
    });
  }

  it('drops claims outside the Date range instead of computing with them', () => {
    const claims = decodeClaims(fakeJwt({ exp: 8.64e12, iat: 1e16 }));
    assert.equal(claims?.exp, undefined);
    assert.equal(claims?.iat, undefined);
  });

  it('property: any exp and iat give finite times, and sign-in completes with its event', async () => {
    const claim = fc.oneof(fc.double(), fc.integer(), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((b) => Number(b)), fc.string(), fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(claim, claim, async (exp, iat) => {
        const claims = decodeClaims(fakeJwt({ exp, iat }));
        const times = tokenTimes(claims, NOW, 30_000);
        assert.ok(Number.isFinite(new Date(times.expiresAt).getTime()) && Number.isFinite(times.refreshAt));
        assert.ok(times.refreshAt <= times.expiresAt && times.expiresAt - NOW <= MAX_LIFETIME_MS);
        const { events } = await signIn({ exp, iat });
        assert.equal(events.length, 1);
      }),
      { numRuns: 200 },
    );
  });
});
