import assert from 'node:assert/strict';
import { cachedTokensOf, parseUsage } from '../../../src/core/inference/chat/usage';
import type { InferenceClient } from '../../../src/core/inference';
import { costByKind, eurPerUnit, quantities, totalCost } from '../../../src/core/usage/cost';
import type { GenerationKind, UsageEvent, UsageEventOf } from '../../../src/core/usage/events';
import { BASE_COUNTER_KEYS, countersOf, emptyCounters, FEATURE_COUNTER_KEYS, Ledger } from '../../../src/core/usage/ledger';
import { usageCsv } from '../../../src/core/usage/csv';
import { BASE_FILE, UsageStore } from '../../../src/core/usage/store';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { RATES } from '../../../src/core/usage/rates';
import { parseUsageSettings, MAX_RATE_EUR_PER_MILLION } from '../../../src/core/usage/settings';
import { summarize } from '../../../src/core/usage/summary';
import { validEvent } from '../../../src/core/usage/validate';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';

const NOW = Date.UTC(2026, 3, 14, 10, 20);

describe('cached prompt tokens: parsing', () => {
  it('reads prompt_tokens_details.cached_tokens and a top-level cached_tokens', () => {
    assert.equal(parseUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 64 } })?.cachedTokens, 64);
    assert.equal(parseUsage({ prompt_tokens: 100, completion_tokens: 5, cached_tokens: 32 })?.cachedTokens, 32);
    assert.equal(parseUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 0 } })?.cachedTokens, 0);
  });

  it('leaves it out when absent or null (prompt_tokens_details: null as some servers send)', () => {
    for (const usage of [{ prompt_tokens: 10, completion_tokens: 1 }, { prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: null }, { prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: {} }]) {
      const parsed = parseUsage(usage);
      assert.ok(parsed && !('cachedTokens' in parsed), JSON.stringify(usage));
    }
    assert.equal(cachedTokensOf({ prompt_tokens_details: { cached_tokens: null }, cached_tokens: 4 }, 10), 4, 'a null detail falls back to the top level');
  });

  it('ignores a value that is not a whole number within the prompt tokens', () => {
    for (const bad of [-1, 1.5, '12', Number.NaN, Number.POSITIVE_INFINITY, 101, 1e300, true, {}]) {
      assert.equal(parseUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: bad } })?.cachedTokens, undefined, String(bad));
      assert.equal(parseUsage({ prompt_tokens: 100, completion_tokens: 5, cached_tokens: bad })?.cachedTokens, undefined, String(bad));
    }
  });
});

describe('cached prompt tokens: events, counters and cost', () => {
  const chat = (promptTokens: number, cachedTokens: number | undefined, kind: GenerationKind = 'chat'): UsageEvent => ({
    kind, at: NOW, model: 'm', promptTokens, completionTokens: 10, reasoningTokens: 0, ...(cachedTokens !== undefined ? { cachedTokens } : {}), estimated: false,
  });

  it('validates a stored event\'s cached tokens as an optional count', () => {
    assert.ok(validEvent(chat(100, 40)));
    assert.ok(validEvent(chat(100, undefined)));
    assert.ok(!validEvent({ ...chat(100, 40), cachedTokens: -1 }));
    assert.ok(!validEvent({ ...chat(100, 40), cachedTokens: 'many' }));
  });

  it('counts cached tokens as a part of the prompt, never more than it, and apart for inline completion', () => {
    assert.deepEqual([countersOf(chat(100, 40))?.input, countersOf(chat(100, 40))?.cachedInput, countersOf(chat(100, 40))?.inlineCached], [100, 40, 0]);
    assert.equal(countersOf(chat(100, 500))?.cachedInput, 100, 'capped at the prompt');
    assert.equal(countersOf(chat(100, undefined))?.cachedInput, 0);
    const inline = countersOf(chat(80, 30, 'completion'));
    assert.deepEqual([inline?.cachedInput, inline?.inlineCached], [30, 30]);
  });

  it('prices cached tokens at the input rate by default, and at their own rate when set', () => {
    const c = { ...emptyCounters(), input: 1_000_000, cachedInput: 400_000 };
    assert.deepEqual([quantities(c).input, quantities(c).cachedInput], [600_000, 400_000]);
    const contract = costByKind(c);
    assert.ok(Math.abs(contract.input + contract.cachedInput - RATES.input.eurPerUnit * 1_000_000) < 1e-9, 'no cached rate: the same as before');
    const discounted = eurPerUnit(0.45);
    assert.ok(Math.abs(costByKind(c, discounted).cachedInput - 0.18) < 1e-9);
    assert.ok(Math.abs(totalCost(c, discounted) - (0.6 * 1.8 + 0.4 * 0.45)) < 1e-9);
    assert.ok(Math.abs(totalCost(c, eurPerUnit(0)) - 0.6 * 1.8) < 1e-9, 'a free cache');
  });

  it('validates the cached-input rate setting (a number in [0, max], else the input rate)', () => {
    assert.equal(parseUsageSettings({ cachedInputRate: 0.45 }).cachedInputEurPerMillion, 0.45);
    assert.equal(parseUsageSettings({ cachedInputRate: 0 }).cachedInputEurPerMillion, 0);
    for (const bad of [-1, MAX_RATE_EUR_PER_MILLION + 1, Number.NaN, '0.4', null, undefined]) {
      assert.equal(parseUsageSettings({ cachedInputRate: bad }).cachedInputEurPerMillion, undefined, String(bad));
    }
  });

  it('the snapshot gives the month\'s cache share, in all and per feature, and its cost at the set rate', () => {
    const ledger = new Ledger('UTC');
    ledger.add(chat(1_000, 600));
    ledger.add(chat(400, 100, 'completion'));
    const withRate = summarize(ledger, parseUsageSettings({ cachedInputRate: 0.9 }), NOW);
    assert.deepEqual(withRate.promptCache, {
      all: { promptTokens: 1_400, cachedTokens: 700 },
      byFeature: [
        { feature: 'chat', promptTokens: 1_000, cachedTokens: 600 },
        { feature: 'completion', promptTokens: 400, cachedTokens: 100 },
      ],
    });
    const row = withRate.costs.byKind.find((k) => k.kind === 'cachedInput');
    assert.equal(row?.quantity, 700);
    assert.ok(Math.abs((row?.eur ?? 0) - 700 * 0.9e-6) < 1e-12);
    const without = summarize(ledger, parseUsageSettings({}), NOW);
    assert.ok(withRate.costs.totalEur < without.costs.totalEur, 'a cheaper cached rate lowers the total');
  });
});

describe('cached prompt tokens: the share per feature', () => {
  const event = (kind: GenerationKind, promptTokens: number, cachedTokens?: number): UsageEvent => ({
    kind, at: NOW, model: 'm', promptTokens, completionTokens: 10, reasoningTokens: 0, ...(cachedTokens !== undefined ? { cachedTokens } : {}), estimated: false,
  });

  it('gives every feature that sent prompts this month its own share, chat and the agent being the rest', () => {
    const ledger = new Ledger('UTC');
    for (const e of [event('chat', 1_000, 750), event('chat', 200), event('completion', 400, 100), event('edit', 300, 150), event('commit', 120, 0), event('nextEdit', 500, 400), event('ocr', 90, 90)]) ledger.add(e);
    const { promptCache } = summarize(ledger, parseUsageSettings({}), NOW);
    assert.deepEqual(promptCache.all, { promptTokens: 2_610, cachedTokens: 1_490 });
    assert.deepEqual(promptCache.byFeature, [
      { feature: 'chat', promptTokens: 1_200, cachedTokens: 750 },
      { feature: 'completion', promptTokens: 400, cachedTokens: 100 },
      { feature: 'edit', promptTokens: 300, cachedTokens: 150 },
      { feature: 'commit', promptTokens: 120, cachedTokens: 0 },
      { feature: 'nextEdit', promptTokens: 500, cachedTokens: 400 },
      { feature: 'ocr', promptTokens: 90, cachedTokens: 90 },
    ]);
    const sum = promptCache.byFeature.reduce((a, f) => ({ promptTokens: a.promptTokens + f.promptTokens, cachedTokens: a.cachedTokens + f.cachedTokens }), { promptTokens: 0, cachedTokens: 0 });
    assert.deepEqual(sum, promptCache.all, 'the features add up to the whole');
  });

  it('lists only the features that sent prompts; none at all gives an empty list', () => {
    const ledger = new Ledger('UTC');
    assert.deepEqual(summarize(ledger, parseUsageSettings({}), NOW).promptCache.byFeature, []);
    ledger.add(event('edit', 50, 20));
    ledger.add({ kind: 'embeddings', at: NOW, model: 'e', promptTokens: 999, estimated: false });
    assert.deepEqual(summarize(ledger, parseUsageSettings({}), NOW).promptCache.byFeature, [{ feature: 'edit', promptTokens: 50, cachedTokens: 20 }]);
  });

  it('prompts stored before the per-feature counters are their own row, not chat, and stay so once compacted', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-cache-unsplit-'));
    try {
      // Earlier this month: 1 000 prompt tokens (600 cached) of unknown features, 200 of them inline completion's.
      const old = { ...Object.fromEntries(BASE_COUNTER_KEYS.map((k) => [k, 0])), requests: 5, input: 1_000, cachedInput: 600, inlineInput: 200, inlineCached: 100 };
      await fs.writeFile(path.join(dir, BASE_FILE), JSON.stringify({ format: 1, version: 1, hwm: {}, buckets: [{ g: 'h', s: NOW - 3_600_000, m: 'old', c: old }] }));
      const store = new UsageStore({ dir, timeZone: 'UTC', now: () => NOW });
      await store.load();
      await store.append([event('chat', 300, 100), event('edit', 50, 20)]);
      const expected = [
        { feature: 'chat', promptTokens: 300, cachedTokens: 100 },
        { feature: 'completion', promptTokens: 200, cachedTokens: 100 },
        { feature: 'edit', promptTokens: 50, cachedTokens: 20 },
        { feature: 'earlier', promptTokens: 800, cachedTokens: 500 },
      ];
      const first = (await new UsageStore({ dir, timeZone: 'UTC', now: () => NOW }).load()).ledger;
      assert.deepEqual(summarize(first, parseUsageSettings({}), NOW).promptCache.byFeature, expected);
      await store.compact();
      const compacted = (await new UsageStore({ dir, timeZone: 'UTC', now: () => NOW }).load()).ledger;
      assert.deepEqual(summarize(compacted, parseUsageSettings({}), NOW).promptCache.byFeature, expected, 'the mark is written back, never applied twice');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('the counters survive the store (compacted and read back); a bucket written before them reads as 0, one out of range is dropped; the CSV has their columns', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-cache-share-'));
    try {
      const store = new UsageStore({ dir, timeZone: 'UTC', now: () => NOW });
      await store.append([event('nextEdit', 500, 400), event('edit', 300, 150)]);
      await store.compact();
      const loaded = (await new UsageStore({ dir, timeZone: 'UTC', now: () => NOW }).load()).ledger.total(-Infinity, Infinity);
      assert.deepEqual([loaded.nextEditInput, loaded.nextEditCached, loaded.editInput, loaded.editCached], [500, 400, 300, 150]);

      const bucket = (c: Record<string, unknown>): unknown => ({ g: 'h', s: NOW - 3_600_000, m: 'old', c: { ...Object.fromEntries(BASE_COUNTER_KEYS.map((k) => [k, 0])), input: 70, ...c } });
      await fs.writeFile(path.join(dir, BASE_FILE), JSON.stringify({ format: 1, version: 1, hwm: {}, buckets: [bucket({}), bucket({ ocrCached: -1 }), bucket({ commitInput: 'many' })] }));
      const old = (await new UsageStore({ dir, timeZone: 'UTC', now: () => NOW }).load()).ledger;
      const c = old.total(-Infinity, Infinity);
      assert.equal(c.input, 70, 'only the bucket written before the counters is kept');
      for (const key of FEATURE_COUNTER_KEYS) assert.equal(c[key], 0, key);
      assert.deepEqual(summarize(old, parseUsageSettings({}), NOW).promptCache.byFeature, [{ feature: 'earlier', promptTokens: 70, cachedTokens: 0 }], 'its feature is unknown: not counted as chat');

      const header = (usageCsv(old).split('\n')[0] ?? '').split(',');
      for (const key of FEATURE_COUNTER_KEYS) assert.ok(header.includes(key), key);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`cached prompt tokens metered from the sandbox (${profile})`, () => {
    let sandbox: Sandbox;
    let client: InferenceClient;
    const events: UsageEvent[] = [];
    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
      client = createMeteredInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), onUsage: (e) => events.push(e), usageNow: () => NOW });
    });
    after(async () => {
      await client.close();
      await sandbox.close();
    });

    it('a second turn that repeats the first as its prefix is answered with cached tokens, and metered', async () => {
      const first = [{ role: 'system' as const, content: 'You are terse.' }, { role: 'user' as const, content: 'hello cache' }];
      const answer = await client.chat({ model: 'gpt-oss:120b', messages: first });
      await client.chat({ model: 'gpt-oss:120b', messages: [...first, { role: 'assistant', content: answer.text }, { role: 'user', content: 'and again' }] });
      const chats = events.filter((e): e is UsageEventOf<'chat'> => e.kind === 'chat');
      assert.equal(chats.length, 2);
      assert.equal(chats[0]?.cachedTokens, undefined);
      assert.ok((chats[1]?.cachedTokens ?? 0) > 0 && (chats[1]?.cachedTokens ?? 0) < (chats[1]?.promptTokens ?? 0), JSON.stringify(chats[1]));
    });
  });
}
