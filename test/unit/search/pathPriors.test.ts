// Path priors (issue 34): fixtures, vendored copies, generated code, snapshots and versioned API
// documents are demoted, never dropped; a query that names tests lifts the test demotion.
import * as assert from 'node:assert/strict';
import { chunkText, LexicalIndex } from '../../../src/core/search';
import { applyPathPriors, demotedPaths, pathPrior, PRIORS, sourceOfBuildOutput, vendoredPackageName, wantsTests } from '../../../src/core/search/lexical/pathPriors';
import { engineFor, paths, TempWorkspace } from './helpers';

const CODE = 'export function parseImportAttributes(parser) {\n  const attributes = parser.readAttributes();\n  return attributes;\n}\n';

describe('search: path priors', () => {
  it('demotes each kind of path by its factor, and leaves ordinary code alone', () => {
    const cases: Array<[string, number]> = [
      ['src/parser/imports.ts', 1],
      ['src/parser/__tests__/imports.test.ts', PRIORS.test],
      ['test/fixtures/imports/input.js', PRIORS.test],
      ['pkg/server/server_test.go', PRIORS.test],
      ['src/parser/imports.spec.ts', PRIORS.test],
      ['tests/test_imports.py', PRIORS.test],
      ['src/__snapshots__/imports.test.ts.snap', PRIORS.snapshot],
      ['vendor/github.com/acme/client/client.go', PRIORS.vendored],
      ['third_party/zlib/inflate.c', PRIORS.vendored],
      ['api/service.pb.go', PRIORS.generated],
      ['public/app.min.js', PRIORS.generated],
      ['src/generated/schema.ts', PRIORS.generated],
      ['openapi/v1beta1/service.yaml', PRIORS.versionedApi],
      ['src/v1/handler.ts', 1],
      ['src/testing/TestScheduler.ts', 1],
    ];
    for (const [path, factor] of cases) assert.equal(pathPrior(path, false), factor, path);
  });

  it('lifts the test demotion when the query names tests, fixtures, specs or mocks (not the vendored one)', () => {
    assert.equal(wantsTests('where are the parser fixtures'), true);
    assert.equal(wantsTests('test for import attributes'), true);
    assert.equal(wantsTests('parse import attributes'), false);
    assert.equal(wantsTests('attestation of the latest build'), false, 'a word that only contains "test"');
    assert.equal(pathPrior('test/fixtures/imports/input.js', true), 1);
    assert.equal(pathPrior('vendor/acme/client.go', true), PRIORS.vendored);
  });

  it('reorders by score times prior, ties in their order, and cuts at the limit', () => {
    const hits = [
      { path: 'test/fixtures/a.js', score: 10 },
      { path: 'src/a.ts', score: 6 },
      { path: 'src/b.ts', score: 6 },
      { path: 'vendor/x/a.js', score: 20 },
    ];
    assert.deepEqual(applyPathPriors('parse a', hits, 3).map((h) => h.path), ['vendor/x/a.js', 'src/a.ts', 'src/b.ts']);
    assert.deepEqual(applyPathPriors('parse a fixture', hits, 2).map((h) => h.path), ['test/fixtures/a.js', 'vendor/x/a.js']);
  });

  it("demotes the user's own globs (VS Code glob syntax) like a fixture; none set, nothing demoted", async () => {
    const demoted = demotedPaths(['**/examples/**', 'docs']);
    assert.equal(pathPrior('pkg/examples/parser.ts', false, demoted), PRIORS.userGlob);
    assert.equal(pathPrior('docs/parser.md', false, demoted), PRIORS.userGlob);
    assert.equal(pathPrior('src/docs/parser.md', false, demoted), 1, 'a glob without a slash matches at the root only, as in files.exclude');
    assert.equal(demotedPaths([]), undefined);
    const ws = new TempWorkspace();
    try {
      ws.write('examples/importAttributes.ts', `${CODE}${CODE}`);
      ws.write('src/importAttributes.ts', CODE);
      const plain = engineFor(ws.root);
      await plain.engine.open();
      assert.equal(paths(plain.engine.lexical('parse import attributes'))[0], 'examples/importAttributes.ts');
      const set = engineFor(ws.root, { settings: { demoteGlobs: ['examples'] } });
      await set.engine.open();
      assert.deepEqual(paths(set.engine.lexical('parse import attributes')), ['src/importAttributes.ts', 'examples/importAttributes.ts']);
    } finally {
      ws.dispose();
    }
  });

  it('ranks the real code above its test fixture copy in the index, and the fixture first when asked for it', () => {
    const index = new LexicalIndex();
    for (const path of ['test/fixtures/parser/import-attributes/input.ts', 'src/parser/importAttributes.ts', 'vendor/parser/importAttributes.ts']) {
      const text = path.startsWith('src/') ? CODE : `${CODE}${CODE.replace('parseImportAttributes', 'parseImportAttributesAgain')}`;
      index.setFile(path, { mtime: 1, size: 1 }, chunkText(path, text));
    }
    assert.equal(index.search('parse import attributes', 5)[0]?.path, 'src/parser/importAttributes.ts');
    assert.equal(index.search('parse import attributes fixture', 5)[0]?.path, 'test/fixtures/parser/import-attributes/input.ts');
    assert.equal(index.search('parse import attributes', 5).length, 3, 'demoted, not dropped');
  });

  it('demotes build output (lib/, dist/, out/: .js, .d.ts, source maps) when the index holds the TypeScript source it was compiled from, and only then (issue 41)', () => {
    const files = new Set(['core/src/common/uri.ts', 'core/src/browser/about-dialog.tsx', 'src/index.ts']);
    const has = (p: string): boolean => files.has(p);
    assert.equal(sourceOfBuildOutput('core/lib/common/uri.js', has), 'core/src/common/uri.ts');
    assert.equal(sourceOfBuildOutput('core/lib/common/uri.d.ts', has), 'core/src/common/uri.ts');
    assert.equal(sourceOfBuildOutput('core/lib/common/uri.js.map', has), 'core/src/common/uri.ts');
    assert.equal(sourceOfBuildOutput('core/lib/browser/about-dialog.js', has), 'core/src/browser/about-dialog.tsx');
    assert.equal(sourceOfBuildOutput('dist/index.mjs', has), 'src/index.ts');
    assert.equal(sourceOfBuildOutput('lib/linter/linter.js', has), undefined, "eslint's lib/ is its source: no twin, no demotion");
    assert.equal(sourceOfBuildOutput('core/src/common/uri.ts', has), undefined);
    assert.equal(pathPrior('core/lib/common/uri.js', false, undefined, false, has), PRIORS.buildOutput);
    assert.equal(pathPrior('lib/linter/linter.js', false, undefined, false, has), 1);
  });

  it('ranks a TypeScript source above its compiled lib/ twins in the index, which stay found', () => {
    const index = new LexicalIndex();
    const source = 'export class ImportAttributesParser {\n  parseImportAttributes(parser: Parser): Attributes {\n    return parser.readAttributes();\n  }\n}\n';
    const compiled = `"use strict";\nclass ImportAttributesParser {\n  parseImportAttributes(parser) {\n    const attributes = parser.readAttributes();\n    return attributes;\n  }\n}\nexports.ImportAttributesParser = ImportAttributesParser;\n`;
    const declarations = 'export declare class ImportAttributesParser {\n  parseImportAttributes(parser: Parser): Attributes;\n}\n';
    index.setFile('pkg/lib/importAttributes.js', { mtime: 1, size: 1 }, chunkText('pkg/lib/importAttributes.js', compiled));
    index.setFile('pkg/lib/importAttributes.d.ts', { mtime: 1, size: 1 }, chunkText('pkg/lib/importAttributes.d.ts', declarations));
    index.setFile('pkg/src/importAttributes.ts', { mtime: 1, size: 1 }, chunkText('pkg/src/importAttributes.ts', source));
    const hits = index.search('ImportAttributesParser parse import attributes', 5).map((h) => h.path);
    assert.equal(hits[0], 'pkg/src/importAttributes.ts');
    assert.equal(hits.length, 3, 'demoted, not dropped');
  });

  it('does not demote a vendored package the query names (grpc, bbolt, go-runc, a scoped npm package), and still demotes the others (issue 41)', () => {
    assert.equal(vendoredPackageName('vendor/google.golang.org/grpc/clientconn.go'), 'grpc');
    assert.equal(vendoredPackageName('vendor/github.com/containerd/go-runc/runc.go'), 'go-runc');
    assert.equal(vendoredPackageName('vendor/go.etcd.io/bbolt/db.go'), 'bbolt');
    assert.equal(vendoredPackageName('node_modules/@theia/core/lib/common/uri.js'), 'core');
    assert.equal(vendoredPackageName('node_modules/ws/lib/websocket.js'), 'ws');
    assert.equal(vendoredPackageName('third_party/zlib/inflate.c'), 'zlib');
    assert.equal(vendoredPackageName('src/server/vendor.ts'), undefined);
    const hits = [
      { path: 'client.go', score: 10 },
      { path: 'vendor/google.golang.org/grpc/clientconn.go', score: 9 },
      { path: 'vendor/github.com/containerd/go-runc/runc.go', score: 8 },
    ];
    assert.deepEqual(applyPathPriors('where is a grpc client connection opened', hits, 3).map((h) => h.path), ['client.go', 'vendor/google.golang.org/grpc/clientconn.go', 'vendor/github.com/containerd/go-runc/runc.go']);
    assert.deepEqual(applyPathPriors('go-runc create a container', hits, 3).map((h) => h.path), ['client.go', 'vendor/github.com/containerd/go-runc/runc.go', 'vendor/google.golang.org/grpc/clientconn.go']);
    assert.deepEqual(applyPathPriors('where is a client connection opened', hits, 3).map((h) => h.path)[0], 'client.go');
    assert.equal(applyPathPriors('runc create', hits, 3)[1]?.score, 9 * PRIORS.vendored, 'one word of two does not name go-runc');
  });

  it('does not demote the vendored chunk that declares the compound identifier asked for, where it lives (issue 41)', () => {
    const index = new LexicalIndex();
    const declared = 'package transport\n\nfunc newHTTP2Client(ctx context.Context, addr TargetInfo) (*http2Client, error) {\n\treturn dial(ctx, addr)\n}\n';
    const line = '\thttpClient := newHTTPClient(newClient(http.Client{})) // a new http client\n';
    const mention = (i: number): string => `package docker\n\nfunc resolve${i}() {\n${line.repeat(8)}}\n`;
    index.setFile('vendor/google.golang.org/grpc/internal/transport/http2_client.go', { mtime: 1, size: 1 }, chunkText('vendor/google.golang.org/grpc/internal/transport/http2_client.go', declared));
    for (let i = 0; i < 4; i++) index.setFile(`remotes/docker/resolver${i}.go`, { mtime: 1, size: 1 }, chunkText(`remotes/docker/resolver${i}.go`, mention(i)));
    index.setFile('vendor/github.com/other/lib/client.go', { mtime: 1, size: 1 }, chunkText('vendor/github.com/other/lib/client.go', mention(9)));
    for (let i = 0; i < 40; i++) index.setFile(`pkg/other${i}.go`, { mtime: 1, size: 1 }, chunkText(`pkg/other${i}.go`, `package other\nfunc f${i}() { return ${i} }\n`));
    const hits = index.search('newHTTP2Client', 10).map((h) => h.path);
    assert.equal(hits[0], 'vendor/google.golang.org/grpc/internal/transport/http2_client.go', hits.join(', '));
    assert.equal(hits[hits.length - 1], 'vendor/github.com/other/lib/client.go', 'a vendored file that only mentions the parts stays demoted');
  });
});
