import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CheckpointHistory,
  deserialiseCheckpoints,
  hashBytes,
  planRestore,
  pruneCheckpoints,
  serialiseCheckpoints,
  TurnRecorder,
  type CheckpointFileSystem,
  type CheckpointStorage,
  type RestoreStep,
  type TurnCheckpoint,
} from '../../../src/core/agent/checkpoints/index';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

class FakeFs implements CheckpointFileSystem {
  files = new Map<string, Uint8Array>();
  reads: string[] = [];
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.files.set(k, enc(v));
  }
  read(path: string): Promise<Uint8Array | undefined> {
    this.reads.push(path);
    return Promise.resolve(this.files.get(path));
  }
  write(path: string, text: string): void {
    this.files.set(path, enc(text));
  }
  apply(steps: readonly RestoreStep[]): void {
    for (const s of steps) {
      if (s.action === 'write') this.files.set(s.path, s.content);
      else this.files.delete(s.path);
    }
  }
  text(path: string): string | undefined {
    const b = this.files.get(path);
    return b && new TextDecoder().decode(b);
  }
}

class FakeStorage implements CheckpointStorage {
  aside: Array<{ text: string; reason: string }> = [];
  constructor(public value: string | undefined = undefined) {}
  read(): Promise<string | undefined> {
    return Promise.resolve(this.value);
  }
  write(text: string): Promise<void> {
    this.value = text;
    return Promise.resolve();
  }
  setAside(text: string, reason: string): Promise<void> {
    this.aside.push({ text, reason });
    return Promise.resolve();
  }
}

async function turnOn(fs: FakeFs, id = 't1'): Promise<TurnCheckpoint> {
  const rec = new TurnRecorder(id, fs, 64);
  for (const p of ['a.ts', 'b.ts', 'c.ts', 'new.ts']) await rec.beforeChange(p);
  fs.write('a.ts', 'A2');
  await rec.beforeChange('a.ts');
  fs.write('a.ts', 'A3');
  fs.write('b.ts', 'B2');
  fs.files.delete('c.ts');
  fs.write('new.ts', 'created');
  return rec.finish(1_700_000_000_000);
}

describe('agent checkpoints: snapshot and restore', () => {
  it('snapshots each file once, before its first change, and lists the turn\'s changes', async () => {
    const fs = new FakeFs({ 'a.ts': 'A1', 'b.ts': 'B1', 'c.ts': 'C1' });
    const rec = new TurnRecorder('t', fs);
    await Promise.all([rec.beforeChange('a.ts'), rec.beforeChange('a.ts'), rec.beforeChange('new.ts')]);
    assert.deepEqual(fs.reads, ['a.ts', 'new.ts']);
    assert.deepEqual(rec.changes(), ['a.ts', 'new.ts']);
    const cp = await turnOn(new FakeFs({ 'a.ts': 'A1', 'b.ts': 'B1', 'c.ts': 'C1' }));
    const a = cp.files.find((f) => f.path === 'a.ts');
    assert.ok(a?.before.kind === 'content' && new TextDecoder().decode(a.before.bytes) === 'A1');
    assert.equal(cp.files.find((f) => f.path === 'new.ts')?.before.kind, 'missing');
    assert.equal(cp.files.find((f) => f.path === 'c.ts')?.afterHash, null);
  });

  it('drops a file the turn left as it was', async () => {
    const fs = new FakeFs({ 'a.ts': 'same' });
    const rec = new TurnRecorder('t', fs);
    await rec.beforeChange('a.ts');
    await rec.beforeChange('ghost.ts');
    fs.write('a.ts', 'other');
    fs.write('a.ts', 'same');
    assert.deepEqual((await rec.finish(0)).files, []);
  });

  it('undo restores three files and deletes the created one', async () => {
    const fs = new FakeFs({ 'a.ts': 'A1', 'b.ts': 'B1', 'c.ts': 'C1' });
    const cp = await turnOn(fs);
    const plan = await planRestore(cp, fs);
    assert.deepEqual(plan.conflicts, []);
    assert.deepEqual(plan.steps.map((s) => [s.path, s.action]).sort(), [['a.ts', 'write'], ['b.ts', 'write'], ['c.ts', 'write'], ['new.ts', 'delete']]);
    fs.apply(plan.steps);
    assert.deepEqual([...fs.files.keys()].sort(), ['a.ts', 'b.ts', 'c.ts']);
    assert.deepEqual(['a.ts', 'b.ts', 'c.ts'].map((p) => fs.text(p)), ['A1', 'B1', 'C1']);
    assert.deepEqual([...(await planRestore(cp, fs)).unchanged].sort(), ['a.ts', 'b.ts', 'c.ts', 'new.ts'], 'a second undo has nothing to do');
  });

  it('a file changed again since the turn is a conflict, by content hash', async () => {
    const fs = new FakeFs({ 'a.ts': 'A1', 'b.ts': 'B1', 'c.ts': 'C1' });
    const cp = await turnOn(fs);
    fs.write('a.ts', 'edited by the user');
    fs.files.delete('b.ts');
    fs.write('c.ts', 'recreated');
    fs.write('new.ts', 'created, then edited');
    const plan = await planRestore(cp, fs);
    assert.deepEqual(plan.steps, []);
    assert.deepEqual(plan.conflicts.map((c) => [c.step.path, c.step.action, c.reason]).sort(), [
      ['a.ts', 'write', 'changed-since'],
      ['b.ts', 'write', 'deleted-since'],
      ['c.ts', 'write', 'created-since'],
      ['new.ts', 'delete', 'changed-since'],
    ]);
  });

  it("the checkpoint's after is what the tool left: the user's later typing in the turn is a conflict, never the turn's", async () => {
    const fs = new FakeFs({ 'a.ts': 'A1', 'b.ts': 'B1' });
    const rec = new TurnRecorder('t', fs);
    await rec.beforeChange('a.ts');
    fs.write('a.ts', 'A2 by the tool');
    await rec.afterChange('a.ts');
    await rec.afterChange('b.ts');
    fs.write('a.ts', 'A2 by the tool, then typed by the user');
    const cp = await rec.finish(0);
    assert.deepEqual(cp.files.map((f) => [f.path, f.afterHash]), [['a.ts', hashBytes(enc('A2 by the tool'))]], 'b.ts: after without before is not recorded');
    const plan = await planRestore(cp, fs);
    assert.deepEqual(plan.steps, []);
    assert.deepEqual(plan.conflicts.map((c) => [c.step.path, c.reason]), [['a.ts', 'changed-since']]);
  });

  it('a tool that changed a file back leaves it out, even if the user then changed it', async () => {
    const fs = new FakeFs({ 'a.ts': 'A1' });
    const rec = new TurnRecorder('t', fs);
    await rec.beforeChange('a.ts');
    await rec.afterChange('a.ts');
    fs.write('a.ts', 'typed by the user');
    assert.deepEqual((await rec.finish(0)).files, []);
  });

  it('a file over the size cap is known by hash only and reported as unrestorable', async () => {
    const fs = new FakeFs({ 'big.bin': 'x'.repeat(100) });
    const rec = new TurnRecorder('t', fs, 10);
    await rec.beforeChange('big.bin');
    fs.write('big.bin', 'y');
    const cp = await rec.finish(0);
    assert.equal(cp.files[0]?.before.kind, 'too-large');
    assert.deepEqual((await planRestore(cp, fs)).unrestorable, ['big.bin']);
  });
});

describe('agent checkpoints: persisted history', () => {
  const binary = new Uint8Array([0, 255, 128, 10, 13]);
  const turn = (id: string, size = 10, createdAt = 1): TurnCheckpoint => ({
    turnId: id,
    createdAt,
    files: [
      { path: `${id}.bin`, before: { kind: 'content', bytes: binary, hash: hashBytes(binary) }, afterHash: hashBytes(enc('x'.repeat(size))) },
      { path: `${id}.new`, before: { kind: 'missing' }, afterHash: hashBytes(enc('n')) },
      { path: `${id}.big`, before: { kind: 'too-large', size: 5e6, hash: hashBytes(enc('big')) }, afterHash: null },
    ],
  });

  it('round-trips through the stored form, binary content included', () => {
    const turns = [turn('t1'), turn('t2')];
    const decoded = deserialiseCheckpoints(serialiseCheckpoints(turns));
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.turns, turns);
  });

  const good = JSON.parse(serialiseCheckpoints([turn('t1')])) as { version: number; turns: Array<Record<string, unknown> & { files: Array<Record<string, unknown>> }> };
  const corrupt: Array<[string, string]> = [
    ['not JSON', '{"version":1,'],
    ['an array', '[]'],
    ['another version', JSON.stringify({ ...good, version: 2 })],
    ['a date out of range', JSON.stringify({ ...good, turns: [{ ...good.turns[0], createdAt: 1e300 }] })],
    ['a negative size', JSON.stringify({ ...good, turns: [{ ...good.turns[0], files: [{ ...good.turns[0]?.files[2], before: { kind: 'too-large', size: -1, hash: hashBytes(enc('b')) } }] }] })],
    ['content not matching its hash', JSON.stringify(good).replace(Buffer.from(binary).toString('base64'), Buffer.from('other').toString('base64'))],
    ['an unknown kind', JSON.stringify({ ...good, turns: [{ ...good.turns[0], files: [{ path: 'a', before: { kind: 'link' }, afterHash: null }] }] })],
    ['an empty path', JSON.stringify({ ...good, turns: [{ ...good.turns[0], files: [{ path: '', before: { kind: 'missing' }, afterHash: null }] }] })],
    ['a duplicate turn id', JSON.stringify({ ...good, turns: [good.turns[0], good.turns[0]] })],
  ];
  for (const [what, text] of corrupt) {
    it(`a store with ${what} is refused with a reason, and set aside on load`, async () => {
      const decoded = deserialiseCheckpoints(text);
      assert.ok(!decoded.ok && decoded.reason.length > 0);
      const storage = new FakeStorage(text);
      const { history, setAside } = await CheckpointHistory.load(storage);
      assert.equal(setAside, !decoded.ok ? decoded.reason : undefined);
      assert.deepEqual(history.list(), []);
      assert.deepEqual(storage.aside, [{ text, reason: setAside }]);
      assert.ok(deserialiseCheckpoints(storage.value ?? '').ok, 'an empty, valid store replaces it');
    });
  }

  it('property: decoding any JSON value never throws', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const d = deserialiseCheckpoints(JSON.stringify(value) ?? 'null');
      assert.equal(typeof d.ok, 'boolean');
    }), { numRuns: 500 });
  });

  it('keeps the last N turns within the size cap, oldest pruned first', async () => {
    const storage = new FakeStorage();
    const { history } = await CheckpointHistory.load(storage, { maxTurns: 3, maxChars: 1_000_000 });
    for (const id of ['t1', 't2', 't3', 't4']) await history.add(turn(id));
    await history.add({ turnId: 'empty', createdAt: 1, files: [] });
    assert.deepEqual(history.list().map((t) => t.turnId), ['t2', 't3', 't4']);
    await history.add(turn('t3', 20));
    assert.deepEqual(history.list().map((t) => t.turnId), ['t2', 't4', 't3'], 'a re-added turn becomes the newest');
    await history.remove('t4');
    const reloaded = await CheckpointHistory.load(storage, { maxTurns: 3, maxChars: 1_000_000 });
    assert.deepEqual(reloaded.history.list().map((t) => t.turnId), ['t2', 't3']);
    assert.equal(reloaded.history.get('t3')?.files.length, 3);

    const one = serialiseCheckpoints([turn('a')]).length;
    const pruned = pruneCheckpoints([turn('a'), turn('b'), turn('c')], { maxTurns: 10, maxChars: one * 2 });
    assert.deepEqual(pruned.map((t) => t.turnId), ['b', 'c']);
    assert.ok(serialiseCheckpoints(pruned).length <= one * 2);
    assert.deepEqual(pruneCheckpoints([turn('a')], { maxTurns: 10, maxChars: 10 }), []);
  });
});
