import assert from 'node:assert/strict';
import { UsageCapError } from '../../../src/core/errors';
import type { InferenceClient } from '../../../src/core/inference';
import { createMeteredInferenceClient, type MeteredClientOptions } from '../../../src/core/usage/meteredClient';
import type { UsageEvent, UsageEventOf } from '../../../src/core/usage/events';
import { createCapGuard } from '../../../src/core/usage/guard';
import { UsageMeter } from '../../../src/core/usage/meter';
import { parseUsageSettings } from '../../../src/core/usage/settings';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';
import { makeWav } from '../sandbox/helpers';

const NOW = Date.parse('2026-04-14T10:20:00Z');

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`usage metering of the inference client (${profile} sandbox)`, function () {
    let sandbox: Sandbox;
    const clients: InferenceClient[] = [];
    let events: UsageEvent[];

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
    });
    after(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await sandbox.close();
    });
    beforeEach(() => {
      events = [];
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      sandbox.control.reset();
    });

    function client(options: Partial<MeteredClientOptions> = {}): InferenceClient {
      const c = createMeteredInferenceClient({
        baseUrl: sandbox.inferenceUrl,
        apiKey: () => Promise.resolve(sandbox.credentials.apiKey),
        retry: { baseDelayMs: 1, maxDelayMs: 10 },
        onUsage: (e) => events.push(e),
        usageNow: () => NOW,
        ...options,
      });
      clients.push(c);
      return c;
    }
    const of = <K extends UsageEvent['kind']>(kind: K): UsageEventOf<K>[] => events.filter((e): e is UsageEventOf<K> => e.kind === kind);

    it('reports a chat answer\'s usage and the rate-limit headers', async () => {
      const result = await client().chat({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hello meter' }] });
      const [chat] = of('chat');
      assert.ok(chat && result.usage);
      assert.deepEqual(chat, { kind: 'chat', at: NOW, model: 'gpt-oss:120b', promptTokens: result.usage.promptTokens, completionTokens: result.usage.completionTokens, reasoningTokens: result.usage.reasoningTokens ?? 0, estimated: false });
      const [rl] = of('rateLimit');
      assert.ok(rl);
      assert.equal(rl.limitRequests, 150_000);
      assert.equal(rl.remainingRequests, 150_000 - result.usage.completionTokens);
      assert.ok(rl.resetAt !== undefined && rl.resetAt > Date.now() - 5_000);
    });

    it('reports reasoning tokens when the service sends them (production) and never counts them twice', async () => {
      const result = await client().chat({ model: 'qwen3:30b', messages: [{ role: 'user', content: 'think about it' }] });
      const [chat] = of('chat');
      assert.ok(chat);
      if (profile === 'production') {
        assert.ok(chat.reasoningTokens > 0);
        assert.equal(chat.reasoningTokens, result.usage?.reasoningTokens);
      }
      const meter = new UsageMeter({ timeZone: 'UTC', now: () => NOW });
      meter.record(chat);
      const s = meter.snapshot();
      assert.equal(s.hour.used, result.usage?.completionTokens, 'the cap counts completion tokens, reasoning included');
    });

    it('takes a stream\'s usage from its final chunk, or estimates it (marked) when there is none', async () => {
      const result = await client().chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'long 30' }] }).consume();
      const [chat] = of('chat');
      assert.ok(chat);
      if (profile === 'production') {
        assert.equal(chat.estimated, false);
        assert.equal(chat.completionTokens, result.usage?.completionTokens);
      } else {
        assert.equal(result.usage, undefined, 'the contract profile sends no usage chunk unasked');
        assert.equal(chat.estimated, true);
        assert.ok(chat.completionTokens >= Math.ceil(result.text.length / 4), `${chat.completionTokens} for ${result.text.length} chars`);
        assert.ok(chat.promptTokens > 0);
      }
    });

    it('meters a stream read with for-await too, and completions', async () => {
      for await (const e of client().chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'hi' }] }, { includeUsage: true })) void e;
      await client().complete({ model: 'gpt-oss:120b', prompt: 'function f() {' });
      const chats = of('chat');
      assert.equal(chats.length, 2);
      assert.ok(chats.every((c) => !c.estimated && c.completionTokens > 0));
    });

    it('reports embeddings tokens, rerank search units and reranked tokens, and audio seconds', async () => {
      const c = client();
      const emb = await c.embed({ model: 'bge-m3:567m', input: ['alpha beta', 'gamma'] });
      const docs = Array.from({ length: 101 }, (_, i) => `document number ${i}`);
      await c.rerank({ model: 'qwen3-reranker:4b', query: 'number 7', documents: docs });
      const tr = await c.transcribe({ file: new Uint8Array(makeWav(61)), filename: 'talk.wav', model: 'whisper-large-v3' });
      const [e] = of('embeddings');
      assert.deepEqual(e, { kind: 'embeddings', at: NOW, model: emb.model ?? 'bge-m3:567m', promptTokens: emb.usage?.promptTokens, estimated: false });
      const [r] = of('rerank');
      assert.ok(r);
      assert.equal(r.searchUnits, 2, '101 documents: two search units');
      assert.ok(r.rerankedTokens > 101 * 3 && r.estimated);
      const [t] = of('transcription');
      assert.ok(t);
      assert.equal(t.audioSeconds, tr.durationSeconds);
      const meter = new UsageMeter({ timeZone: 'UTC', now: () => NOW });
      for (const ev of events) meter.record(ev);
      const audio = meter.snapshot().costs.byKind.find((k) => k.kind === 'audio');
      assert.equal(audio?.quantity, 2, '61 s: two started minutes');
      assert.equal(audio?.eur, 0.02);
    });

    it('refuses a chat before sending it when the hourly cap is reached, and sends it otherwise', async () => {
      const meter = new UsageMeter({ timeZone: 'UTC', now: () => NOW, settings: () => parseUsageSettings({ tier: 'tier1' }) });
      const guard = createCapGuard({ snapshot: () => meter.snapshot(), settings: () => meter.currentSettings(), now: () => NOW });
      const c = client({ onUsage: meter.listener, beforeGeneration: guard });
      await c.chat({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'first' }], max_tokens: 50 });
      meter.record({ kind: 'chat', at: NOW, model: 'gpt-oss:120b', promptTokens: 0, completionTokens: 149_000, reasoningTokens: 0, estimated: false });
      const sent = sandbox.control.requests().length;
      await assert.rejects(
        c.chat({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'second' }] }),
        (e: unknown) => e instanceof UsageCapError && e.window === 'hour' && e.resetsAtLabel === '11:00' && e.resetsAt.getTime() === Date.parse('2026-04-14T11:00:00Z'),
      );
      await assert.rejects(c.chatStream({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'third' }] }).consume(), UsageCapError);
      await assert.rejects(c.completeStream({ model: 'gpt-oss:120b', prompt: 'x' })[Symbol.asyncIterator]().next(), UsageCapError);
      assert.equal(sandbox.control.requests().length, sent, 'nothing was sent');
      // A small max_tokens still fits under the cap.
      await c.chat({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'ok' }], max_tokens: 10 });
      assert.equal(sandbox.control.requests().length, sent + 1);
    });
  });
}
