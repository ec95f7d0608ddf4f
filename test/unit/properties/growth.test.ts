import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { assertLinearGrowth, cpuMicros } from './growth';

// The growth helper judges work by CPU time, so a machine under load (the thread waiting for a
// CPU) does not read as growth, while quadratic work still fails (issue 40, item 17).
describe('properties/growth: linear growth judged by CPU time, not wall time', function () {
  this.timeout(60_000);
  const text = (n: number): string => 'ab'.repeat(n / 2);

  it('passes a linear scan and fails a quadratic one', () => {
    const linear = (s: string): number => {
      let h = 0;
      for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
      return h;
    };
    // Quadratic: re-scans the prefix at each character (what the rewritten parsers used to do).
    const quadratic = (s: string): number => {
      let h = 0;
      for (let i = 0; i < s.length; i++) for (let j = 0; j < i; j += 1) h = (h + s.charCodeAt(j)) | 0;
      return h;
    };
    assertLinearGrowth(text, linear, 2_000, { label: 'linear' });
    assert.throws(() => assertLinearGrowth(text, quadratic, 2_000, { label: 'quadratic' }), /linear is x8/);
  });

  it('does not count time spent waiting (a blocked thread uses no CPU)', () => {
    // A synchronous child process blocks this thread ~200 ms of wall time at almost no CPU of its own.
    const used = cpuMicros(() => execFileSync(process.execPath, ['-e', 'setTimeout(() => {}, 200)']));
    assert.ok(used < 150_000, `${used} µs of CPU for a 200 ms wait`);
  });
});
