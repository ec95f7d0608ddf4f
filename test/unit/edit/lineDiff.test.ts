import * as assert from 'node:assert/strict';
import { StreamingLineDiff, similar, type Hunk } from '../../../src/core/edit';

function snapshot(hunks: readonly Hunk[]): string {
  return JSON.stringify(hunks.map((h) => ({ s: h.originalStart, r: h.removed, a: [...h.added], c: h.closed })));
}

function run(original: string[], rewrite: string[]): { hunks: Hunk[]; diff: StreamingLineDiff } {
  const diff = new StreamingLineDiff(original);
  for (const line of rewrite) diff.push(line);
  diff.finish();
  return { hunks: [...diff.hunks], diff };
}

/** Applies the hunks to the original: must give the rewrite back. */
function applyHunks(original: readonly string[], hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const h of hunks) {
    out.push(...original.slice(at, h.originalStart), ...h.added);
    at = h.originalStart + h.removed;
  }
  return [...out, ...original.slice(at)];
}

describe('core/edit StreamingLineDiff', () => {
  it('finds no hunk when the rewrite equals the original', () => {
    const lines = ['a', 'b', 'c'];
    assert.deepEqual(run(lines, lines).hunks, []);
  });

  it('pairs a rewritten line with the original it edits (one removed, one added)', () => {
    const { hunks } = run(['function f(value) {', '  return value + 1;', '}'], ['function f(amount) {', '  return amount + 1;', '}']);
    assert.equal(hunks.length, 1);
    assert.deepEqual({ start: hunks[0]?.originalStart, removed: hunks[0]?.removed, added: hunks[0]?.added }, { start: 0, removed: 2, added: ['function f(amount) {', '  return amount + 1;'] });
  });

  it('reports insertions and deletions as separate hunks around unchanged lines', () => {
    const original = ['import a', 'const x = computeSomething();', 'const y = 2;', 'log(x)', 'done()'];
    const rewrite = ['// header', 'import a', 'const y = 2;', 'log(x)', 'extra()', 'done()'];
    const { hunks } = run(original, rewrite);
    assert.deepEqual(hunks.map((h) => [h.originalStart, h.removed, h.added]), [
      [0, 0, ['// header']],
      [1, 1, []],
      [4, 0, ['extra()']],
    ]);
    assert.deepEqual(applyHunks(original, hunks), rewrite);
  });

  it('removes the original lines left over at the end', () => {
    const original = ['a1', 'b2', 'c3', 'd4'];
    const { hunks } = run(original, ['a1']);
    assert.deepEqual(hunks.map((h) => [h.originalStart, h.removed, h.added]), [[1, 3, []]]);
  });

  it('does not jump far ahead to match a short common line such as "}"', () => {
    const original = ['if (a) {', '  one();', '}', 'if (b) {', '  two();', '}'];
    const rewrite = ['if (a) {', '  three();', '  four();', '}', 'if (b) {', '  two();', '}'];
    const { hunks } = run(original, rewrite);
    assert.deepEqual(applyHunks(original, hunks), rewrite);
    assert.equal(hunks.length, 1, 'only the body of the first block changed');
    assert.equal(hunks[0]?.removed, 1);
  });

  it('keeps closed hunks unchanged while later lines arrive (hunks stable as lines stream)', () => {
    const original = Array.from({ length: 60 }, (_, i) => (i % 5 === 0 ? `  value_${i} = compute(${i});` : `  keep_${i}();`));
    const rewrite = original.map((l) => l.replace('value_', 'amount_'));
    const diff = new StreamingLineDiff(original);
    const closedSeen = new Map<number, string>();
    for (const line of rewrite) {
      diff.push(line);
      for (const h of diff.hunks) {
        const s = snapshot([h]);
        if (closedSeen.has(h.id)) assert.equal(s, closedSeen.get(h.id), `hunk ${h.id} changed after it closed`);
        else if (h.closed) closedSeen.set(h.id, s);
      }
      const open = diff.openHunk;
      if (open) assert.equal(open, diff.hunks[diff.hunks.length - 1], 'the open hunk is always the last');
    }
    diff.finish();
    assert.equal(diff.hunks.length, 12);
    assert.deepEqual(applyHunks(original, diff.hunks), rewrite);
  });

  it('gives the rewrite back for random edits of a random text (any rewrite is represented exactly)', () => {
    let seed = 7;
    const rand = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let round = 0; round < 200; round++) {
      const original = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => ['}', '', 'x = 1', `call_${Math.floor(rand() * 8)}()`, `  const v${Math.floor(rand() * 5)} = ${Math.floor(rand() * 3)};`][Math.floor(rand() * 5)] ?? '');
      const rewrite: string[] = [];
      for (const line of original) {
        const r = rand();
        if (r < 0.15) continue;
        if (r < 0.3) rewrite.push(`${line} // changed`);
        else if (r < 0.4) rewrite.push('inserted()', line);
        else rewrite.push(line);
      }
      const { hunks } = run(original, rewrite);
      assert.deepEqual(applyHunks(original, hunks), rewrite, `round ${round}`);
      for (const h of hunks) assert.ok(h.removed > 0 || h.added.length > 0, 'no empty hunk');
    }
  });

  it('says when a line in progress already differs from the line it would replace', () => {
    const diff = new StreamingLineDiff(['const total = 1;']);
    assert.equal(diff.diverges('const to'), false);
    assert.equal(diff.diverges('const su'), true);
    diff.push('const total = 1;');
    assert.equal(diff.diverges('x'), true, 'past the end of the original, anything is an addition');
  });

  it('calls lines similar when only part of them changed', () => {
    assert.equal(similar('  return value + 1;', '  return amount + 1;'), true);
    assert.equal(similar('    foo()', 'foo()'), true);
    assert.equal(similar('import x from "y";', '}'), false);
  });
});
