import assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { startSandbox } from '../../sandbox/index';
import { call, chat, infer, useSandbox, user, type ErrorEnvelope } from './helpers';

function budget(headers: Headers): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(headers.get('x-ratelimit-limit-requests')),
    remaining: Number(headers.get('x-ratelimit-remaining-requests')),
    reset: Number(headers.get('x-ratelimit-reset-requests')),
  };
}

describe('sandbox inference: output-token rate limits (contract profile)', () => {
  // The sandbox's clock stands at 10:20:00 UTC (fake timers, never ticked; reset() drops the
  // advanceTime offsets): windows then never roll by accident mid-test (an hour or a day
  // boundary in real time), and the reset deltas are exact.
  const timers = createClock(Date.UTC(2026, 10, 22, 10, 20, 0));
  const sb = useSandbox({ tier: { outputTokensPerHour: 40, outputTokensPerDay: 100 }, timers });
  beforeEach(() => sb().control.reset());

  it('default tier is Tier 1 (150 000/hour)', async () => {
    const other = await startSandbox();
    try {
      const r = await call(`${other.inferenceUrl}/models`, { headers: { authorization: `Bearer ${other.credentials.apiKey}` } });
      assert.equal(budget(r.headers).limit, 150_000);
      assert.equal(other.control.snapshot().tier.outputTokensPerDay, 3_600_000);
    } finally {
      await other.close();
    }
  });

  it('X-RateLimit-* headers are integers on every inference route; Reset is a delta in seconds', async () => {
    const responses = [
      await call(`${sb().inferenceUrl}/models`, { headers: { authorization: `Bearer ${sb().credentials.apiKey}` } }),
      await chat(sb(), { messages: [user('hi')] }),
      await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'x' }),
      await infer(sb(), '/v2/rerank', { model: 'qwen3-reranker:4b', query: 'q', documents: ['d'] }),
      await infer(sb(), '/embeddings', { model: 'nope', input: 'x' }),
    ];
    for (const r of responses) {
      const b = budget(r.headers);
      assert.equal(b.limit, 40);
      assert.ok(Number.isInteger(b.remaining) && b.remaining >= 0);
      assert.equal(b.reset, 40 * 60, 'delta seconds to the end of the hour (11:00)');
    }
  });

  it('Remaining decreases by the completion tokens of each reply', async () => {
    const r = await chat(sb(), { messages: [user('abcd')] }); // "Echo (gpt-oss:120b): abcd" = 25 chars = 7 tokens
    assert.equal(budget(r.headers).remaining, 33);
    const next = await call(`${sb().inferenceUrl}/models`, { headers: { authorization: `Bearer ${sb().credentials.apiKey}` } });
    assert.equal(budget(next.headers).remaining, 33);
  });

  it('429 rate_limit_error / rate_limit_exceeded with Retry-After once the hourly budget is spent, until the hour rolls', async () => {
    sb().control.consumeOutputTokens(40);
    const r = await chat(sb(), { messages: [user('hi')] });
    assert.equal(r.status, 429);
    const err = (r.json as ErrorEnvelope).error;
    assert.equal(err.type, 'rate_limit_error');
    assert.equal(err.code, 'rate_limit_exceeded');
    assert.equal(budget(r.headers).remaining, 0);
    assert.equal(r.headers.get('retry-after'), String(40 * 60), 'seconds until 11:00');
    const completions = await infer(sb(), '/completions', { model: 'gpt-oss:120b', messages: [user('hi')] });
    assert.equal(completions.status, 429);
    // embeddings produce no output tokens and stay available
    assert.equal((await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'x' })).status, 200);
    sb().control.advanceTime(40 * 60_000 - 1);
    assert.equal((await chat(sb(), { messages: [user('hi')] })).status, 429, 'still 10:59:59.999');
    sb().control.advanceTime(1);
    assert.equal((await chat(sb(), { messages: [user('hi')] })).status, 200, 'the hour rolled at 11:00');
  });

  it('the daily budget binds too, and Reset then points at the end of the day', async () => {
    sb().control.consumeOutputTokens(100);
    sb().control.advanceTime(3_600_000);
    const r = await chat(sb(), { messages: [user('hi')] });
    assert.equal(r.status, 429);
    assert.equal(budget(r.headers).reset, (12 * 60 + 40) * 60, 'from 11:20 to midnight');
    assert.equal(r.headers.get('retry-after'), String((12 * 60 + 40) * 60));
    assert.equal(sb().control.snapshot().outputTokens.day, 100);
  });

  it('setTier changes the limits', async () => {
    sb().control.setTier({ outputTokensPerHour: 300_000, outputTokensPerDay: 7_200_000 });
    const r = await chat(sb(), { messages: [user('hi')] });
    assert.equal(budget(r.headers).limit, 300_000);
  });
});

describe('sandbox inference: output-token rate limits (production profile)', () => {
  // A fake clock at a known instant: the reset is the end of its hour, as a Unix time in seconds.
  const timers = createClock(Date.UTC(2026, 10, 22, 17, 40, 12, 345));
  const sb = useSandbox({ profile: 'production', timers });
  it('X-RateLimit-Reset-Requests is a Unix time in seconds (the end of the hour window)', async () => {
    const r = await chat(sb(), { messages: [user('hi')] });
    assert.equal(budget(r.headers).reset, Date.UTC(2026, 10, 22, 18, 0, 0) / 1000);
    timers.tick(20 * 60_000); // into the next hour
    const next = await chat(sb(), { messages: [user('hi')] });
    assert.equal(budget(next.headers).reset, Date.UTC(2026, 10, 22, 19, 0, 0) / 1000);
  });
});
