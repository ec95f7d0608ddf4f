import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { COUNTER_KEYS } from '../../../src/core/usage/ledger';
import { DEFAULT_USAGE_SETTINGS } from '../../../src/core/usage/settings';
import { BASE_FILE, UsageStore } from '../../../src/core/usage/store';
import { summarize } from '../../../src/core/usage/summary';

const NOW = Date.parse('2026-04-14T10:20:00Z');
const ZONE = 'Europe/Paris';

/** JSON text that can also hold what a damaged or hand-edited file holds: 1e999, -1e999. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? `__num:${v}__` : v))
    .replace(/"__num:Infinity__"/g, '1e999')
    .replace(/"__num:-Infinity__"/g, '-1e999')
    .replace(/"__num:NaN__"/g, 'null');
}

const counters = (output: number): Record<string, number> => Object.fromEntries(COUNTER_KEYS.map((k) => [k, k === 'output' ? output : 0]));
const bucket = (s: number, output = 4, g = 'h'): unknown => ({ g, s, m: 'ok', c: counters(output) });
const chatLine = (s: number, at: number, completionTokens = 2): string =>
  toJson({ w: 'x', s, e: { kind: 'chat', at, model: 'm', promptTokens: 1, completionTokens, reasoningTokens: 0, estimated: false } });

describe('usage store: numbers read from disk are range-checked', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-usage-ranges-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const store = (): UsageStore => new UsageStore({ dir, timeZone: ZONE, now: () => NOW });
  const total = async (): Promise<number> => (await store().load()).ledger.total(-Infinity, Infinity).output;

  it('a bucket starting at -1e300 is dropped; load and compact keep working', async () => {
    await fs.writeFile(path.join(dir, BASE_FILE), toJson({ format: 1, version: 2, hwm: {}, buckets: [bucket(-1e300, 99), bucket(NOW - 3_600_000)] }));
    assert.equal(await total(), 4);
    assert.equal(await store().compact(), true);
    assert.equal(await total(), 4);
  });

  it('an event line at -1e300 is skipped; load and compact keep working', async () => {
    await fs.writeFile(path.join(dir, 'events-x.0.jsonl'), `${chatLine(1, -1e300, 50)}\n${chatLine(2, NOW)}\n`);
    const loaded = await store().load();
    assert.equal(loaded.skippedLines, 1);
    assert.equal(loaded.ledger.total(-Infinity, Infinity).output, 2);
    assert.equal(await store().compact(), true);
    assert.equal(await total(), 2);
  });

  it('a base with version 1e999 is set aside, and the next base has a whole version again', async () => {
    await fs.writeFile(path.join(dir, BASE_FILE), `{"format":1,"version":1e999,"hwm":{},"buckets":${toJson([bucket(NOW - 3_600_000)])}}`);
    await fs.writeFile(path.join(dir, 'events-x.0.jsonl'), `${chatLine(1, NOW)}\n`);
    const first = await store().load();
    assert.equal(first.baseRecovered, true);
    assert.equal(first.ledger.total(-Infinity, Infinity).output, 2, 'counting goes on from the event files');
    assert.equal(await store().compact(), true);
    assert.ok((await fs.readdir(dir)).some((f) => f.startsWith(`${BASE_FILE}.corrupt-`)), 'the unreadable base is kept aside');
    const after = await store().load();
    assert.equal(after.baseRecovered, false);
    assert.ok(Number.isSafeInteger(after.version) && after.version > 0);
    assert.equal(after.ledger.total(-Infinity, Infinity).output, 2);
  });

  it('a rate-limit record resetting in year 30000 is dropped rather than breaking the summary', async () => {
    await fs.writeFile(path.join(dir, BASE_FILE), toJson({ format: 1, version: 1, hwm: {}, buckets: [], rateLimit: { kind: 'rateLimit', at: NOW, resetAt: 1e300 } }));
    const { ledger } = await store().load();
    assert.equal(ledger.rateLimit, undefined);
    assert.doesNotThrow(() => summarize(ledger, DEFAULT_USAGE_SETTINGS, NOW));
  });

  // Numbers as a damaged file may hold them: out of range, non-finite, wrong type, or plausible.
  const num = fc.oneof(
    fc.constantFrom(-1e300, 1e300, Infinity, -Infinity, NaN, -1, 0, 1.5, Number.MAX_SAFE_INTEGER, 8.64e15, 2 ** 60),
    fc.double(),
    fc.integer({ min: NOW - 500 * 86_400_000, max: NOW + 86_400_000 }),
    fc.nat(1000),
    fc.constantFrom<unknown>('7', null, true, undefined, [], {}),
  );
  const baseArb = fc.record(
    {
      format: fc.oneof(fc.constant(1), num),
      version: num,
      buckets: fc.array(fc.record({ g: fc.constantFrom('m', 'h', 'd', 'y'), s: num, m: fc.constantFrom('a', 'b', ''), c: fc.dictionary(fc.constantFrom(...COUNTER_KEYS), num) }, { requiredKeys: ['g', 's', 'm'] }), { maxLength: 6 }),
      hwm: fc.dictionary(fc.constantFrom('x', 'y'), fc.record({ seq: num, at: num })),
      rateLimit: fc.record({ kind: fc.constant('rateLimit'), at: num, limitRequests: num, remainingRequests: num, resetAt: num }, { requiredKeys: ['kind'] }),
      resetAt: num,
    },
    { requiredKeys: [] },
  );
  const eventArb = fc.record(
    {
      kind: fc.constantFrom('chat', 'embeddings', 'rerank', 'transcription', 'rateLimit', 'other'),
      at: num,
      model: fc.constantFrom('a', 'b'),
      promptTokens: num,
      completionTokens: num,
      reasoningTokens: num,
      rerankedTokens: num,
      searchUnits: num,
      audioSeconds: num,
      resetAt: num,
      remainingRequests: num,
      estimated: fc.boolean(),
    },
    { requiredKeys: ['kind'] },
  );
  const lineArb = fc.record({ w: fc.constantFrom('x', 'y'), s: num, e: eventArb });

  it('property: load() of arbitrary records never throws, and neither do compact(), a second load() and the summary', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(baseArb, { nil: undefined }), fc.array(lineArb, { maxLength: 8 }), async (base, lines) => {
        await fs.rm(dir, { recursive: true, force: true });
        await fs.mkdir(dir, { recursive: true });
        if (base) await fs.writeFile(path.join(dir, BASE_FILE), toJson(base));
        await fs.writeFile(path.join(dir, 'events-x.0.jsonl'), lines.map((l) => toJson(l)).join('\n'));
        const s = store();
        const first = await s.load();
        summarize(first.ledger, DEFAULT_USAGE_SETTINGS, NOW);
        assert.equal(await s.compact(), true);
        const second = await s.load();
        assert.equal(second.baseRecovered, false, 'a base this store wrote is always readable');
        summarize(second.ledger, DEFAULT_USAGE_SETTINGS, NOW);
        for (const b of second.ledger.all()) for (const k of COUNTER_KEYS) assert.ok(Number.isFinite(b.c[k]) && b.c[k] >= 0);
      }),
      { numRuns: 150 },
    );
  });
});
