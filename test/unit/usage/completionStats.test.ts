import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import FakeTimers from '@sinonjs/fake-timers';
import type { InferenceClient } from '../../../src/core/inference';
import { CompletionStats, completionFigures, measureText, type CompletionTelemetrySink } from '../../../src/core/usage/completionStats';
import type { UsageEvent } from '../../../src/core/usage/events';
import { BASE_COUNTER_KEYS, COUNTER_KEYS, Ledger } from '../../../src/core/usage/ledger';
import { usageMarkdown } from '../../../src/core/usage/markdown';
import { createMeteredInferenceClient } from '../../../src/core/usage/meteredClient';
import { UsageMeter } from '../../../src/core/usage/meter';
import { RATES } from '../../../src/core/usage/rates';
import { DEFAULT_USAGE_SETTINGS } from '../../../src/core/usage/settings';
import { BASE_FILE, UsageStore } from '../../../src/core/usage/store';
import { summarize } from '../../../src/core/usage/summary';
import { startSandbox, type Sandbox } from '../../sandbox/index';

const NOW = Date.parse('2026-04-14T10:20:00Z');
const ZONE = 'Europe/Paris';

const completion = (at: number, promptTokens: number, completionTokens: number, model = 'code-model'): UsageEvent => ({ kind: 'completion', at, model, promptTokens, completionTokens, reasoningTokens: 0, estimated: false });

describe('inline completion statistics (usage)', () => {
  it('CompletionStats turns sink calls into inlineStat events on the injected clock, whole and in range', () => {
    const fake = FakeTimers.createClock(NOW);
    const events: UsageEvent[] = [];
    const stats = new CompletionStats({ record: (e) => events.push(e), now: () => fake.now, model: () => 'code-model' });
    const sink: CompletionTelemetrySink = stats;
    sink.requested();
    fake.tick(250);
    sink.shown({ chars: 12, lines: 1 });
    sink.accepted({ chars: 12.7, lines: 1 });
    sink.accepted({ chars: -3, lines: Number.NaN });
    sink.shown({ chars: Infinity, lines: 2 });
    assert.deepEqual(events.slice(0, 3), [
      { kind: 'inlineStat', at: NOW, stat: 'requested', model: 'code-model', chars: 0, lines: 0 },
      { kind: 'inlineStat', at: NOW + 250, stat: 'shown', model: 'code-model', chars: 12, lines: 1 },
      { kind: 'inlineStat', at: NOW + 250, stat: 'accepted', model: 'code-model', chars: 12, lines: 1 },
    ]);
    assert.deepEqual(events[3], { kind: 'inlineStat', at: NOW + 250, stat: 'accepted', model: 'code-model', chars: 0, lines: 0 });
    assert.equal((events[4] as { chars: number }).chars, 0, 'a non-finite count is never recorded');
  });

  it('a failing meter or model getter never throws into the editor', () => {
    const stats = new CompletionStats({
      record: () => {
        throw new Error('disk full');
      },
      model: () => {
        throw new Error('no model');
      },
      now: () => NOW,
    });
    assert.doesNotThrow(() => {
      stats.requested();
      stats.shown({ chars: 1, lines: 1 });
      stats.accepted({ chars: 1, lines: 1 });
    });
  });

  it('measureText counts characters and lines', () => {
    assert.deepEqual(measureText(''), { chars: 0, lines: 0 });
    assert.deepEqual(measureText('foo()'), { chars: 5, lines: 1 });
    assert.deepEqual(measureText('{\n  x\n}'), { chars: 7, lines: 3 });
  });

  it('summarizes requests, acceptance, tokens per accepted character and EUR per accepted line, per window', () => {
    const fake = FakeTimers.createClock(NOW);
    const meter = new UsageMeter({ timeZone: ZONE, now: () => fake.now });
    const stats = new CompletionStats({ record: (e) => meter.record(e), now: () => fake.now, model: () => 'code-model' });
    // Yesterday: one request, shown, accepted.
    const yesterday = NOW - 86_400_000;
    meter.record(completion(yesterday, 100, 10));
    meter.record({ kind: 'inlineStat', at: yesterday, stat: 'shown', model: 'code-model', chars: 20, lines: 2 });
    meter.record({ kind: 'inlineStat', at: yesterday, stat: 'accepted', model: 'code-model', chars: 20, lines: 2 });
    // This hour: four asked, two sent, three shown (one from the cache), one accepted.
    for (let i = 0; i < 4; i++) stats.requested();
    meter.record(completion(NOW, 300, 20));
    meter.record(completion(NOW, 280, 0));
    stats.shown({ chars: 30, lines: 1 });
    stats.shown({ chars: 10, lines: 1 });
    stats.shown({ chars: 40, lines: 4 });
    stats.accepted({ chars: 40, lines: 4 });

    const s = meter.snapshot();
    const hour = s.completion.hour;
    assert.equal(hour.requests, 4);
    assert.equal(hour.sent, 2);
    assert.equal(hour.shown, 3);
    assert.equal(hour.accepted, 1);
    assert.equal(hour.acceptedChars, 40);
    assert.equal(hour.acceptedLines, 4);
    assert.equal(hour.acceptanceRate, 1 / 3);
    assert.equal(hour.tokens, 600);
    assert.equal(hour.tokensPerAcceptedChar, 600 / 40);
    const eur = 580 * RATES.input.eurPerUnit + 20 * RATES.output.eurPerUnit;
    assert.ok(Math.abs(hour.costEur - eur) < 1e-12);
    assert.ok(hour.eurPerAcceptedLine !== undefined && Math.abs(hour.eurPerAcceptedLine - eur / 4) < 1e-12);
    // The month includes yesterday (same month in Paris).
    assert.equal(s.completion.month.sent, 3);
    assert.equal(s.completion.month.accepted, 2);
    assert.equal(s.completion.month.acceptedLines, 6);
    assert.equal(s.completion.day.sent, 2);
    // Completion tokens are billed and capped like chat; statistics are not requests.
    assert.equal(s.hour.used, 20);
    const row = s.costs.byModel.find((r) => r.model === 'code-model');
    assert.equal(row?.requests, 3);
  });

  it('reports nothing (undefined ratios) when nothing was shown or accepted, and a model with statistics only gets no cost row', () => {
    const ledger = new Ledger(ZONE);
    ledger.add({ kind: 'inlineStat', at: NOW, stat: 'requested', model: 'm', chars: 0, lines: 0 });
    const s = summarize(ledger, DEFAULT_USAGE_SETTINGS, NOW);
    assert.equal(s.completion.month.requests, 1);
    assert.equal(s.completion.month.acceptanceRate, undefined);
    assert.equal(s.completion.month.tokensPerAcceptedChar, undefined);
    assert.equal(s.completion.month.eurPerAcceptedLine, undefined);
    assert.deepEqual(s.costs.byModel, []);
    assert.equal(ledger.total(-Infinity, Infinity).requests, 0);
  });

  it('ghost text and next edit cost their cached prompt tokens at the cached rate: with nothing else used, they add up to the month total (issue 40)', () => {
    const ledger = new Ledger(ZONE);
    // Mostly cached prompts, as ghost text and next edit send them (the same prefix, keystroke after keystroke).
    ledger.add({ kind: 'completion', at: NOW, model: 'code-model', promptTokens: 1_000_000, completionTokens: 20_000, reasoningTokens: 0, cachedTokens: 900_000, estimated: false });
    ledger.add({ kind: 'nextEdit', at: NOW, model: 'code-model', promptTokens: 800_000, completionTokens: 30_000, reasoningTokens: 0, cachedTokens: 700_000, estimated: false });
    for (const cachedInputEurPerMillion of [0.18, undefined]) {
      const s = summarize(ledger, { ...DEFAULT_USAGE_SETTINGS, cachedInputEurPerMillion }, NOW);
      const features = s.completion.month.costEur + s.completion.month.nextEdit.costEur;
      assert.ok(Math.abs(features - s.month.costEur) < 1e-9, `rate ${cachedInputEurPerMillion}: ghost text ${s.completion.month.costEur} + next edit ${s.completion.month.nextEdit.costEur} = ${features}, month ${s.month.costEur}`);
    }
    const cheap = summarize(ledger, { ...DEFAULT_USAGE_SETTINGS, cachedInputEurPerMillion: 0.18 }, NOW);
    const eur = 100_000 * RATES.input.eurPerUnit + 900_000 * 0.18e-6 + 20_000 * RATES.output.eurPerUnit;
    assert.ok(Math.abs(cheap.completion.month.costEur - eur) < 1e-12, String(cheap.completion.month.costEur));
  });

  it('counts next edit requests (kind nextEdit) apart from inline ones, billed and capped like them, in the Completion figures and /usage', () => {
    const ledger = new Ledger(ZONE);
    ledger.add(completion(NOW, 1_000, 100));
    ledger.add({ kind: 'nextEdit', at: NOW, model: 'code-model', promptTokens: 2_000, completionTokens: 300, reasoningTokens: 20, estimated: false });
    ledger.add({ kind: 'nextEdit', at: NOW - 2 * 3_600_000, model: 'code-model', promptTokens: 1_000, completionTokens: 100, reasoningTokens: 0, estimated: false });
    const s = summarize(ledger, DEFAULT_USAGE_SETTINGS, NOW);
    assert.deepEqual([s.completion.month.sent, s.completion.month.tokens], [1, 1_100], 'the inline figures leave next edit out');
    assert.deepEqual({ ...s.completion.month.nextEdit, costEur: undefined }, { sent: 2, tokens: 3_400, costEur: undefined });
    assert.equal(s.completion.hour.nextEdit.sent, 1);
    const rate = RATES.input.eurPerUnit;
    const out = RATES.output.eurPerUnit;
    assert.ok(Math.abs(s.completion.month.nextEdit.costEur - (3_000 * rate + 400 * out)) < 1e-12, String(s.completion.month.nextEdit.costEur));
    assert.equal(s.hour.used, 100 + 300, 'generated tokens (reasoning included) count against the hourly cap');
    assert.match(usageMarkdown(s), /Next edit suggestions: 2 request\(s\) sent, 3\D?400 tokens/);
    const only = new Ledger(ZONE);
    only.add({ kind: 'nextEdit', at: NOW, model: 'm', promptTokens: 10, completionTokens: 5, reasoningTokens: 0, estimated: false });
    assert.doesNotMatch(usageMarkdown(summarize(only, DEFAULT_USAGE_SETTINGS, NOW)), /no inline completions yet/, 'next edit requests alone fill the section');
  });

  it('/usage Markdown has the Completion lines, or "no inline completions yet"', () => {
    const empty = usageMarkdown(summarize(new Ledger(ZONE), DEFAULT_USAGE_SETTINGS, NOW));
    assert.match(empty, /no inline completions yet/);
    const ledger = new Ledger(ZONE);
    ledger.add(completion(NOW, 1_000, 100));
    ledger.add({ kind: 'inlineStat', at: NOW, stat: 'requested', model: 'code-model', chars: 0, lines: 0 });
    ledger.add({ kind: 'inlineStat', at: NOW, stat: 'shown', model: 'code-model', chars: 50, lines: 2 });
    ledger.add({ kind: 'inlineStat', at: NOW, stat: 'accepted', model: 'code-model', chars: 50, lines: 2 });
    const md = usageMarkdown(summarize(ledger, DEFAULT_USAGE_SETTINGS, NOW));
    assert.match(md, /\| 1 \| 1 \| 1 \| 100\.0 % \| 22\.0 \| €0\.0013 \|/);
    assert.doesNotMatch(md, /no inline completions yet/);
  });

  describe('persisted in the usage store', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-inline-stats-'));
    });
    afterEach(async () => {
      await fs.rm(dir, { recursive: true, force: true });
    });

    const store = (): UsageStore => new UsageStore({ dir, timeZone: ZONE, now: () => NOW });

    async function write(compact: boolean): Promise<void> {
      const meter = new UsageMeter({ timeZone: ZONE, now: () => NOW, store: store() });
      const stats = new CompletionStats({ record: (e) => meter.record(e), now: () => NOW, model: () => 'code-model' });
      stats.requested();
      meter.record(completion(NOW, 200, 10));
      stats.shown({ chars: 9, lines: 1 });
      stats.accepted({ chars: 9, lines: 1 });
      await meter.flush();
      if (compact) await meter.refresh({ compact: true });
    }

    for (const compact of [false, true]) {
      it(`reloads the statistics from ${compact ? 'the compacted base' : 'the event files'}`, async () => {
        await write(compact);
        if (compact) assert.ok(JSON.parse(await fs.readFile(path.join(dir, BASE_FILE), 'utf8')).buckets.length > 0);
        const reloaded = new UsageMeter({ timeZone: ZONE, now: () => NOW, store: store() });
        await reloaded.refresh();
        const month = reloaded.snapshot().completion.month;
        assert.deepEqual([month.requests, month.sent, month.shown, month.accepted, month.acceptedChars, month.acceptedLines, month.tokens], [1, 1, 1, 1, 9, 1, 210]);
      });
    }

    const bucket = (c: Record<string, unknown>): unknown => ({ g: 'h', s: NOW - 3_600_000, m: 'code-model', c: { ...Object.fromEntries(BASE_COUNTER_KEYS.map((k) => [k, 0])), output: 4, ...c } });

    it('reads a bucket written before the inline counters existed as zero inline figures', async () => {
      await fs.writeFile(path.join(dir, BASE_FILE), JSON.stringify({ format: 1, version: 1, hwm: {}, buckets: [bucket({})] }));
      const { ledger } = await store().load();
      const c = ledger.total(-Infinity, Infinity);
      assert.equal(c.output, 4);
      for (const k of COUNTER_KEYS) assert.ok(Number.isFinite(c[k]), k);
      assert.equal(completionFigures(c).accepted, 0);
    });

    it('drops a bucket whose inline counter is out of range (1e999, -1, a string)', async () => {
      const text = JSON.stringify({ format: 1, version: 1, hwm: {}, buckets: [bucket({ inlineAccepted: '__BIG__' }), bucket({ inlineShown: -1 }), bucket({ inlineAcceptedLines: 'many' }), bucket({ inlineAccepted: 2 })] }).replace('"__BIG__"', '1e999');
      await fs.writeFile(path.join(dir, BASE_FILE), text);
      const { ledger } = await store().load();
      const c = ledger.total(-Infinity, Infinity);
      assert.equal(c.output, 4, 'only the valid bucket is kept');
      assert.equal(c.inlineAccepted, 2);
    });

    it('skips event lines with an unknown stat or counts out of range', async () => {
      const line = (s: number, e: Record<string, unknown>): string => JSON.stringify({ w: 'x', s, e: { kind: 'inlineStat', at: NOW, model: 'm', chars: 1, lines: 1, stat: 'accepted', ...e } });
      const lines = [line(1, { stat: 'rejected' }), line(2, { chars: -1 }), line(3, { lines: 1e13 }), line(4, { model: 7 }), line(5, {})];
      lines.push(JSON.stringify({ w: 'x', s: 6, e: { kind: 'completion', at: NOW, model: 'm', promptTokens: -5, completionTokens: 1, reasoningTokens: 0, estimated: false } }));
      await fs.writeFile(path.join(dir, 'events-x.0.jsonl'), lines.join('\n') + '\n');
      const loaded = await store().load();
      assert.equal(loaded.skippedLines, 5);
      const c = loaded.ledger.total(-Infinity, Infinity);
      assert.equal(c.inlineAccepted, 1);
      assert.equal(c.inlineRequests, 0);
    });
  });

  describe('metering: purpose "inline" records kind completion', () => {
    let sandbox: Sandbox;
    let client: InferenceClient;
    let events: UsageEvent[];
    before(async () => {
      sandbox = await startSandbox({ port: 0 });
    });
    after(async () => {
      await sandbox.close();
    });
    beforeEach(() => {
      events = [];
      client = createMeteredInferenceClient({
        baseUrl: sandbox.inferenceUrl,
        apiKey: () => Promise.resolve(sandbox.credentials.apiKey),
        retry: { baseDelayMs: 1, maxDelayMs: 10 },
        onUsage: (e) => events.push(e),
        usageNow: () => NOW,
      });
    });
    afterEach(async () => {
      await client.close();
      sandbox.control.reset();
    });

    const request = { model: 'gpt-oss:120b', messages: [{ role: 'user' as const, content: 'const x = <CURSOR>' }], max_tokens: 48 };

    it('a streamed inline completion stopped early is metered as completion (estimated), a plain one as chat', async () => {
      const controller = new AbortController();
      let deltas = 0;
      await client
        .completeStream(request, { signal: controller.signal, purpose: 'inline' })
        .consume((e) => {
          if (e.type === 'text' && ++deltas === 3) controller.abort();
        })
        .catch(() => undefined);
      const inline = events.filter((e) => e.kind === 'completion');
      assert.equal(inline.length, 1);
      assert.equal(events.filter((e) => e.kind === 'chat').length, 0);
      const [first] = inline;
      assert.ok(first?.kind === 'completion' && first.completionTokens > 0 && first.model === 'gpt-oss:120b');

      events.length = 0;
      await client.complete(request, { purpose: 'inline' });
      await client.complete(request);
      assert.deepEqual(events.filter((e) => e.kind !== 'rateLimit').map((e) => e.kind), ['completion', 'chat']);
    });
  });
});
