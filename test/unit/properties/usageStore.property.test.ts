import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { COUNTER_KEYS } from '../../../src/core/usage/ledger';
import { DEFAULT_USAGE_SETTINGS } from '../../../src/core/usage/settings';
import { BASE_FILE, UsageStore } from '../../../src/core/usage/store';
import { summarize } from '../../../src/core/usage/summary';
import { checkAsync, weirdJson } from './harness';

// The usage store's persisted state as a damaged disk, another version or a hostile hand leaves
// it: raw bytes, cut lines, writer names that are Object.prototype's, and well-formed records.

const NOW = Date.parse('2026-11-25T03:00:00Z');
const ZONE = 'Europe/Paris';

const writer = fc.constantFrom('x', 'y', '__proto__', 'constructor', 'toString', 'seq');

/** A chat event line as this store writes them, with small plausible numbers. */
const goodLine = fc.record({ w: writer, s: fc.integer({ min: 1, max: 6 }), out: fc.integer({ min: 1, max: 9 }), ago: fc.integer({ min: 0, max: 5 * 86_400_000 }) }).map(({ w, s, out, ago }) =>
  JSON.stringify({ w, s, e: { kind: 'chat', at: NOW - ago, model: 'm', promptTokens: 1, completionTokens: out, reasoningTokens: 0, estimated: false } }),
);

const line = fc.oneof(
  { arbitrary: goodLine, weight: 4 },
  { arbitrary: goodLine.chain((l) => fc.nat(l.length).map((n) => l.slice(0, n))), weight: 1 },
  { arbitrary: weirdJson.map((v) => JSON.stringify(v) ?? ''), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
);

const base = fc.oneof(
  fc.constant(undefined),
  fc.string({ unit: 'binary', maxLength: 40 }),
  weirdJson.map((v) => JSON.stringify(v) ?? ''),
  fc.dictionary(writer, fc.record({ seq: fc.integer({ min: 0, max: 6 }), at: fc.constant(NOW - 1000) }), { maxKeys: 3 }).map((hwm) =>
    // `__proto__` as an own key: JSON.stringify of a literal would drop it.
    `{"format":1,"version":1,"buckets":[],"hwm":{${Object.entries(hwm).map(([w, m]) => `${JSON.stringify(w)}:${JSON.stringify(m)}`).join(',')}}}`,
  ),
);

describe('properties: the usage store\'s persisted state', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-usage-prop-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('any files load, and compacting never changes the total (no line lost or counted twice)', async () => {
    await checkAsync(
      fc.asyncProperty(base, fc.array(line, { maxLength: 8 }), async (baseText, lines) => {
        await fs.rm(dir, { recursive: true, force: true });
        await fs.mkdir(dir, { recursive: true });
        if (baseText !== undefined) await fs.writeFile(path.join(dir, BASE_FILE), baseText);
        await fs.writeFile(path.join(dir, 'events-x.0.jsonl'), lines.join('\n'));
        const store = new UsageStore({ dir, timeZone: ZONE, now: () => NOW, writerId: 'me' });
        const first = await store.load();
        const before = first.ledger.total(-Infinity, Infinity);
        summarize(first.ledger, DEFAULT_USAGE_SETTINGS, NOW);
        assert.equal(await store.compact(), true);
        const second = await store.load();
        assert.equal(second.baseRecovered, false, 'a base this store wrote is always readable');
        const after = second.ledger.total(-Infinity, Infinity);
        for (const k of COUNTER_KEYS) assert.equal(after[k], before[k], `${k} unchanged by compaction`);
        const third = await new UsageStore({ dir, timeZone: ZONE, now: () => NOW, writerId: 'other' }).load();
        assert.equal(third.ledger.total(-Infinity, Infinity).output, before.output, 'another window reads the same total');
      }),
      60,
    );
  });
});
