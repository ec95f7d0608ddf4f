import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

describe('http engine: the runtime\'s fetch, never npm undici', () => {
  it('sends through the global fetch (patched by VS Code in the host) and never loads npm undici', () => {
    const probe = join(__dirname, 'helpers', 'lazy-probe.ts');
    const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', probe], {
      cwd: join(__dirname, '..', '..', '..'),
      encoding: 'utf8',
      timeout: 15_000,
    });
    assert.deepEqual(JSON.parse(out), { npmUndiciLoaded: false, globalFetchCalls: 1 });
  });
});
