import assert from 'node:assert/strict';
import { loadFolderInstructions, type InstructionsReader } from '../../../src/core/agent/instructions/index';

function reader(files: Record<string, string>): InstructionsReader {
  return {
    readFile: (path) => Promise.resolve(files[path]),
    listFiles: (dir) => Promise.resolve(Object.keys(files).filter((p) => p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes('/')).map((p) => p.slice(dir.length + 1))),
  };
}

describe('instructions: one load per workspace folder (multi-root glue)', () => {
  it('one folder: paths as in the folder, the user file first', async () => {
    const loaded = await loadFolderInstructions([{ name: 'app', reader: reader({ 'AGENTS.md': 'Use tabs.' }), contextFiles: [] }], { trusted: true, userFile: { path: '/home/u/me.md', text: 'Be brief.' } }, 32_768);
    assert.deepEqual(loaded.used, ['/home/u/me.md', 'AGENTS.md']);
    assert.deepEqual(loaded.sources.map((s) => [s.folder, s.path]), [[undefined, '/home/u/me.md'], ['app', 'AGENTS.md']]);
    assert.ok(loaded.text.indexOf('Be brief.') < loaded.text.indexOf('Use tabs.'));
    assert.equal(loaded.untrustedSkipped, false);
  });

  it('several folders: each folder read with its own reader, paths prefixed with the folder name', async () => {
    const loaded = await loadFolderInstructions(
      [
        { name: 'api', reader: reader({ 'AGENTS.md': 'API rules.', 'src/AGENTS.md': 'API src rules.' }), contextFiles: ['src/a.ts'] },
        { name: 'web', reader: reader({ '.github/copilot-instructions.md': 'Web rules.' }), contextFiles: [] },
      ],
      { trusted: true },
      32_768,
    );
    assert.deepEqual(loaded.used, ['api/AGENTS.md', 'api/src/AGENTS.md', 'web/.github/copilot-instructions.md']);
    assert.deepEqual(loaded.sources.map((s) => `${s.folder ?? ''}:${s.path}`), ['api:AGENTS.md', 'api:src/AGENTS.md', 'web:.github/copilot-instructions.md']);
    assert.match(loaded.text, /source="api\/src\/AGENTS.md"/);
  });

  it('untrusted: no repository file is read, the user file still is, and the skip is reported', async () => {
    const loaded = await loadFolderInstructions([{ name: 'app', reader: { readFile: () => assert.fail('read'), listFiles: () => assert.fail('listed') }, contextFiles: ['a.ts'] }], { trusted: false, userFile: { path: 'me.md', text: 'Mine.' } }, 8192);
    assert.deepEqual(loaded.used, ['me.md']);
    assert.equal(loaded.untrustedSkipped, true);
  });

  it('nothing to load: an empty section', async () => {
    const loaded = await loadFolderInstructions([{ name: 'app', reader: reader({}), contextFiles: [] }], { trusted: true }, 8192);
    assert.equal(loaded.text, '');
    assert.deepEqual(loaded.used, []);
  });
});
