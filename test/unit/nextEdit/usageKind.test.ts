import assert from 'node:assert/strict';
import { callTransport, INLINE_CALL } from '../../../src/core/inference/shared/call';
import type { UsageEvent } from '../../../src/core/usage/events';
import { countersOf } from '../../../src/core/usage/ledger';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { validEvent } from '../../../src/core/usage/validate';
import { startSandbox, type Sandbox } from '../../sandbox/index';

const NOW = Date.parse('2026-04-14T10:20:00Z');

describe('core/nextEdit usage kind nextEdit', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => sandbox.close());

  it('a completion with purpose nextEdit is metered as kind nextEdit, billed like chat', async () => {
    const events: UsageEvent[] = [];
    const client = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 }, onUsage: (e) => events.push(e), usageNow: () => NOW });
    try {
      await client.complete({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'rename' }], max_tokens: 16 }, { purpose: 'nextEdit' });
    } finally {
      await client.close();
    }
    const generated = events.filter((e) => e.kind !== 'rateLimit');
    assert.deepEqual(generated.map((e) => e.kind), ['nextEdit']);
    const [event] = generated;
    assert.ok(event && validEvent(event), 'the stored event passes validation');
    const counters = countersOf(event);
    assert.ok(counters && counters.input > 0 && counters.output > 0);
    assert.equal(counters.inlineRequests, 0, 'not counted as a ghost-text request');
  });

  it('a nextEdit call is sent once with the inline timeouts (stale before a retry could answer)', () => {
    assert.deepEqual(callTransport({ purpose: 'nextEdit' }), { timeouts: { firstByteMs: INLINE_CALL.firstByteTimeoutMs, idleMs: INLINE_CALL.idleTimeoutMs }, retry: false });
  });
});
