import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

describe('http/undici is loaded lazily', () => {
  it('is not loaded by importing or creating clients, only by the first request', () => {
    const probe = join(__dirname, 'helpers', 'lazy-probe.ts');
    const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', probe], {
      cwd: join(__dirname, '..', '..', '..'),
      encoding: 'utf8',
      timeout: 15_000,
    });
    assert.deepEqual(JSON.parse(out), { afterImport: false, afterRequest: true });
  });
});
