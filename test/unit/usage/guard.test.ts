import assert from 'node:assert/strict';
import FakeTimers from '@sinonjs/fake-timers';
import { CancelledError, UsageCapError } from '../../../src/core/errors';
import { presentError } from '../../../src/core/presentError';
import { capBlock, createCapGuard } from '../../../src/core/usage/guard';
import { UsageMeter } from '../../../src/core/usage/meter';
import { parseUsageSettings, type UsageSettings } from '../../../src/core/usage/settings';

const NOW = Date.parse('2026-04-14T10:20:00Z');
const out = (meter: UsageMeter, at: number, tokens: number): void =>
  meter.record({ kind: 'chat', at, model: 'm', promptTokens: 0, completionTokens: tokens, reasoningTokens: 0, estimated: false });

describe('usage cap check before a request', () => {
  let clock: FakeTimers.Clock;
  beforeEach(() => {
    clock = FakeTimers.install({ now: NOW, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  });
  afterEach(() => clock.uninstall());

  function setup(settings: Partial<UsageSettings> = {}): { meter: UsageMeter; guard: ReturnType<typeof createCapGuard>; waits: string[] } {
    const s = { ...parseUsageSettings({ tier: 'tier1' }), ...settings };
    const meter = new UsageMeter({ timeZone: 'Europe/Paris', settings: () => s });
    const waits: string[] = [];
    const guard = createCapGuard({ snapshot: () => meter.snapshot(), settings: () => s, onWait: (b) => waits.push(`${b.window} ${b.resetsAtLabel}`) });
    return { meter, guard, waits };
  }

  it('admits a request under the caps, and any request in an empty window', async () => {
    const { meter, guard } = setup();
    await guard({ model: 'm', maxTokens: 500_000 }, undefined);
    out(meter, NOW, 100_000);
    await guard({ model: 'm', maxTokens: 40_000 }, undefined);
  });

  it('fails fast with the reset time when the hourly cap is reached or would be by max_tokens', async () => {
    const { meter, guard } = setup();
    out(meter, NOW, 149_500);
    await assert.rejects(guard({ model: 'm', maxTokens: undefined }, undefined), (e: unknown) => {
      assert.ok(e instanceof UsageCapError);
      assert.equal(e.window, 'hour');
      assert.equal(e.resetsAtLabel, '13:00', 'local time in Paris (UTC+2)');
      const p = presentError(e, NOW);
      assert.match(p.message, /^Hourly cap reached, resets at 13:00/);
      assert.match(p.message, /may generate 1 024 more/, 'the default max_tokens counts');
      assert.deepEqual(p.actions, ['showUsage', 'openSettings']);
      assert.equal(p.retryAfterSeconds, 40 * 60);
      return true;
    });
    await guard({ model: 'm', maxTokens: 500 }, undefined);
    out(meter, NOW, 500);
    await assert.rejects(guard({ model: 'm', maxTokens: 1 }, undefined), (e: unknown) => e instanceof UsageCapError && /150 000 of 150 000/.test(e.message));
  });

  it('reports the daily cap (its later reset) when both are reached', () => {
    const { meter } = setup();
    out(meter, NOW, 3_600_000);
    const block = capBlock(meter.snapshot(), { model: 'm', maxTokens: 1 });
    assert.equal(block?.window, 'day');
    assert.equal(block?.resetsAt, Date.parse('2026-04-14T22:00:00Z'));
  });

  it('has no cap on monthly billing', async () => {
    const { meter, guard } = setup({ tier: 'monthly' });
    out(meter, NOW, 99_000_000);
    await guard({ model: 'm', maxTokens: 10 }, undefined);
  });

  it('waits until the hour resets when the user chose to wait, then sends', async () => {
    const { meter, guard, waits } = setup({ waitAtCap: true });
    out(meter, NOW, 150_000);
    let passed = false;
    const pending = guard({ model: 'm', maxTokens: 100 }, undefined).then(() => (passed = true));
    await clock.tickAsync(39 * 60_000);
    assert.equal(passed, false, 'still waiting at 12:59 local');
    await clock.tickAsync(60_001);
    await pending;
    assert.equal(passed, true);
    assert.deepEqual(waits, ['hour 13:00']);
  });

  it('stops waiting when the request is cancelled', async () => {
    const { meter, guard } = setup({ waitAtCap: true });
    out(meter, NOW, 150_000);
    const abort = new AbortController();
    const pending = guard({ model: 'm', maxTokens: 100 }, abort.signal);
    await clock.tickAsync(1000);
    abort.abort();
    await assert.rejects(pending, CancelledError);
  });
});
