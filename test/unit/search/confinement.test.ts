import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engineFor, TempWorkspace } from './helpers';

const SECRET_WORD = 'zyxfakecredentialtoken';

describe('search index: symbolic links that leave the workspace (file events after the first build)', () => {
  let ws: TempWorkspace;
  let outside: string;

  beforeEach(() => {
    ws = new TempWorkspace();
    outside = mkdtempSync(join(tmpdir(), 'stratus-outside-'));
    writeFileSync(join(outside, 'credentials'), `[default]\naws_secret_access_key = ${SECRET_WORD}\n`);
    mkdirSync(join(outside, 'more'));
    writeFileSync(join(outside, 'more', 'notes.md'), `another ${SECRET_WORD}\n`);
    ws.write('docs/intro.md', '# Setup\nRun the installer.\n');
  });

  afterEach(() => {
    ws.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  it('does not index a link to a file outside that a change event reports, and never returns its text', async () => {
    const { engine } = engineFor(ws.root, { settings: { rerank: { enabled: false, model: '', version: 'v1', timeoutMs: 1000, batchSize: 25, concurrency: 1 } } });
    await engine.open();
    symlinkSync(join(outside, 'credentials'), join(ws.root, 'docs', 'setup.md'));
    engine.notifyChanged('docs/setup.md');
    await engine.flush();
    assert.deepEqual(engine.lexical(SECRET_WORD), []);
    const result = await engine.search(`aws_secret_access_key ${SECRET_WORD}`);
    assert.ok(!JSON.stringify(result.hits).includes(SECRET_WORD));
    assert.ok(!result.hits.some((h) => h.path.startsWith('docs/setup')));
    // The text sent to the rerank endpoint comes from documentsFor: the link's target is not read.
    const docs = await engine.documentsFor([{ id: 1, path: 'docs/setup.md', startLine: 1, endLine: 2, preview: '', localRank: 1 }]);
    assert.ok(!docs.join('\n').includes(SECRET_WORD), docs.join('\n'));
    assert.equal(engine.stats.files, 1);
    engine.dispose();
  });

  it('does not index a linked folder outside reported by a create event, nor the files under it', async () => {
    const { engine } = engineFor(ws.root);
    await engine.open();
    symlinkSync(outside, join(ws.root, 'vendor'));
    engine.notifyChanged('vendor');
    engine.notifyChanged('vendor/credentials');
    engine.notifyChanged('vendor/more/notes.md');
    await engine.flush();
    assert.deepEqual(engine.lexical(SECRET_WORD), []);
    assert.equal(engine.stats.files, 1);
    engine.dispose();
  });

  it('drops a file that became a link to outside (a checkout replaced it)', async () => {
    ws.write('docs/setup.md', 'qqplainnotes here\n');
    const { engine } = engineFor(ws.root);
    await engine.open();
    assert.equal(engine.stats.files, 2);
    ws.remove('docs/setup.md');
    symlinkSync(join(outside, 'credentials'), join(ws.root, 'docs', 'setup.md'));
    engine.notifyChanged('docs/setup.md');
    await engine.flush();
    assert.deepEqual(engine.lexical(SECRET_WORD), []);
    assert.deepEqual(engine.lexical('qqplainnotes'), []);
    assert.equal(engine.stats.files, 1);
    engine.dispose();
  });
});
