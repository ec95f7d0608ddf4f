// Counterexamples found by the property suite (test/unit/properties), kept as plain examples.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageStore } from '../../../src/core/usage/store';

const NOW = Date.parse('2026-11-25T03:00:00Z');

describe('usage store files found by fuzzing', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stratus-usage-found-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('an event line from a writer named "__proto__" is counted once, before and after compaction', async () => {
    const line = JSON.stringify({ w: '__proto__', s: 1, e: { kind: 'chat', at: NOW, model: 'm', promptTokens: 1, completionTokens: 1, reasoningTokens: 0, estimated: false } });
    await fs.writeFile(path.join(dir, 'events-x.0.jsonl'), `${line}\n`);
    const store = new UsageStore({ dir, timeZone: 'Europe/Paris', now: () => NOW, writerId: 'me' });
    assert.equal((await store.load()).ledger.total(-Infinity, Infinity).requests, 1);
    assert.equal(await store.compact(), true);
    assert.equal((await store.load()).ledger.total(-Infinity, Infinity).requests, 1, 'its high-water mark is kept, so it is not counted again');
    assert.equal(await store.compact(), true);
    assert.equal((await store.load()).ledger.total(-Infinity, Infinity).requests, 1);
  });
});
