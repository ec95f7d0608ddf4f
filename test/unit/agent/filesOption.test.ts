import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { filesOption } from '../../../src/core/agent/customization';
import { SEED } from '../properties/harness';

describe('/prompt <name> --files <glob>: the option', () => {
  it('takes the glob after --files (a word, or "quoted" with spaces) out of the rest of the line', () => {
    assert.deepEqual(filesOption(' --files src/**/*.ts'), { present: true, glob: 'src/**/*.ts', rest: '' });
    assert.deepEqual(filesOption(' in French --files docs/*.md please'), { present: true, glob: 'docs/*.md', rest: 'in French please' });
    assert.deepEqual(filesOption(' --files "my docs/**/*.md" now'), { present: true, glob: 'my docs/**/*.md', rest: 'now' });
    assert.deepEqual(filesOption(' --files "unclosed quote'), { present: true, glob: 'unclosed quote', rest: '' });
  });

  it('says when --files has no glob after it', () => {
    assert.deepEqual(filesOption(' --files'), { present: true, glob: '', rest: '' });
    assert.deepEqual(filesOption(' --files   '), { present: true, glob: '', rest: '' });
    assert.deepEqual(filesOption(' --files ""'), { present: true, glob: '', rest: '' });
  });

  it('is no option inside a word (--filesystem, x--files) nor absent', () => {
    assert.deepEqual(filesOption(' --filesystem src'), { present: false });
    assert.deepEqual(filesOption(' x--files src'), { present: false });
    assert.deepEqual(filesOption(' tidy the imports'), { present: false });
  });

  it('finds any glob word after any text, and never throws on any line', () => {
    const word = fc.string({ minLength: 1 }).filter((w) => !/[\s"]/.test(w));
    const plain = fc.string().filter((t) => !t.includes('--files'));
    fc.assert(
      fc.property(plain, word, plain, fc.string(), (before, glob, after, any) => {
        const parsed = filesOption(`${before} --files ${glob} ${after}`);
        assert.ok(parsed.present && parsed.glob === glob, JSON.stringify(parsed));
        assert.equal(parsed.rest, `${before.trim()} ${after.trim()}`.trim());
        filesOption(any);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('reads hostile lines in linear time (work at 8n stays near 8x the work at n)', () => {
    const hostile = (n: number): string[] => [' -'.repeat(n), ' --file'.repeat(n), `${' '.repeat(n)}--files`, ` --files "${'a '.repeat(n)}`, ` --files ${'\t'.repeat(n)}`];
    const time = (lines: string[]): number => {
      const start = performance.now();
      for (let i = 0; i < 5; i++) for (const line of lines) filesOption(line);
      return performance.now() - start;
    };
    const small = hostile(20_000);
    const large = hostile(160_000);
    let least = { small: Infinity, large: Infinity };
    // Interleaved runs, the least of each: a loaded machine only slows a run down.
    for (let run = 0; run < 5; run++) least = { small: Math.min(least.small, time(small)), large: Math.min(least.large, time(large)) };
    const ratio = least.large / Math.max(least.small, 0.05);
    assert.ok(ratio < 30, `8x the input took ${ratio.toFixed(1)}x the time (quadratic would be ~64x)`);
  });
});
