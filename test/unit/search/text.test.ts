import * as assert from 'node:assert/strict';
import { chunkText, distinctTerms, splitIdentifier, stem, tokenize } from '../../../src/core/search';

describe('search: identifier splitting', () => {
  it('splits camelCase, PascalCase, snake_case, SCREAMING_CASE, acronyms and digits', () => {
    assert.deepEqual(splitIdentifier('refreshAuthToken'), ['refresh', 'auth', 'token']);
    assert.deepEqual(splitIdentifier('HTTPServerError'), ['http', 'server', 'error']);
    assert.deepEqual(splitIdentifier('refresh_auth_token'), ['refresh', 'auth', 'token']);
    assert.deepEqual(splitIdentifier('MAX_RETRY_COUNT'), ['max', 'retry', 'count']);
    assert.deepEqual(splitIdentifier('utf8Decoder2'), ['utf', '8', 'decoder', '2']);
    assert.deepEqual(splitIdentifier('$scope__value'), ['scope', 'value']);
  });

  it('tokenises so natural-language words meet identifiers', () => {
    assert.deepEqual(tokenize('function refreshAuthToken(user_id) { return TOKENS; }'), ['function', 'refresh', 'auth', 'token', 'user', 'id', 'return', 'token']);
    assert.deepEqual(tokenize('café Straße naïveCafé'), ['café', 'straße', 'naïve', 'café'], 'letters beyond ASCII are word characters');
    // The question side gives the same words, filler dropped.
    assert.deepEqual(tokenize('Where do we refresh the auth tokens?'), ['refresh', 'auth', 'token']);
  });

  it('stems plurals lightly and consistently', () => {
    assert.equal(stem('tokens'), 'token');
    assert.equal(stem('retries'), 'retry');
    assert.equal(stem('class'), 'class');
    assert.equal(stem('status'), 'status');
  });

  it('drops encoded blobs and keeps distinct terms once', () => {
    assert.deepEqual(tokenize(`x = "${'QUJD'.repeat(40)}"`), []);
    assert.deepEqual(distinctTerms('cache cache Cache caches'), ['cache']);
  });
});

describe('search: chunking', () => {
  const lines = (n: number, prefix = 'line'): string[] => Array.from({ length: n }, (_, i) => `  ${prefix} ${i + 1};`);

  it('cuts at function and class starts and reports 1-based inclusive line ranges', () => {
    const text = [...lines(10, 'a'), 'function second() {', ...lines(10, 'b'), '}', 'export class Third {', ...lines(9, 'c'), '}'].join('\n');
    const chunks = chunkText('x.ts', text, { minLines: 5 });
    assert.deepEqual(chunks.map((c) => [c.startLine, c.endLine]), [[1, 10], [11, 22], [23, 33]]);
    assert.match(chunks[1]?.text ?? '', /^function second\(\) \{/);
    assert.equal(chunks[2]?.text.split('\n')[0], 'export class Third {');
  });

  it('cuts Markdown at headings', () => {
    const text = ['# Title', ...lines(6), '', '## Install', ...lines(6), '## Usage', ...lines(3)].join('\n');
    const chunks = chunkText('README.md', text, { minLines: 3 });
    assert.deepEqual(chunks.map((c) => c.text.split('\n')[0]), ['# Title', '## Install', '## Usage']);
  });

  it('bounds chunk size, prefers a blank line, and overlaps hard cuts a little', () => {
    const long = lines(100).join('\n');
    const chunks = chunkText('x.js', long, { maxLines: 30, overlapLines: 2 });
    assert.ok(chunks.every((c) => c.endLine - c.startLine + 1 <= 30));
    assert.equal(chunks[0]?.endLine, 30);
    assert.equal(chunks[1]?.startLine, 29, 'two lines of overlap after a hard cut');
    assert.equal(chunks[chunks.length - 1]?.endLine, 100, 'the whole file is covered');

    const withBlank = [...lines(20), '', ...lines(20)].join('\n');
    const cut = chunkText('x.js', withBlank, { maxLines: 30 });
    assert.deepEqual(cut.map((c) => [c.startLine, c.endLine]), [[1, 20], [22, 41]]);
  });

  it('bounds characters; a single huge line stays whole; blank-only input gives nothing', () => {
    const text = Array.from({ length: 40 }, () => 'x'.repeat(100)).join('\n');
    assert.ok(chunkText('a.txt', text, { maxChars: 1000 }).every((c) => c.text.length <= 1000));
    const huge = chunkText('min.js', `a\n${'y'.repeat(5000)}\nb`, { maxChars: 1000 });
    assert.ok(huge.some((c) => c.text.includes('y'.repeat(5000))));
    assert.deepEqual(chunkText('e.txt', '\n\n  \n'), []);
    assert.deepEqual(chunkText('e.txt', ''), []);
  });

  it('handles CRLF files', () => {
    const chunks = chunkText('w.ts', 'const a = 1;\r\nconst b = 2;\r\n');
    assert.deepEqual(chunks, [{ startLine: 1, endLine: 2, text: 'const a = 1;\nconst b = 2;' }]);
  });
});

describe('search: chunking keeps doc comments with their declaration', () => {
  it('moves a strong cut above the comment and decorator lines of the declaration', () => {
    const body = Array.from({ length: 10 }, (_, i) => `  step(${i});`);
    const text = ['function first() {', ...body, '}', '', '/**', ' * Refreshes the token.', ' */', '@memoize()', 'export function second() {', ...body, '}'].join('\n');
    const chunks = chunkText('x.ts', text, { minLines: 5 });
    assert.deepEqual(chunks.map((c) => c.text.split('\n')[0]), ['function first() {', '/**']);
    assert.equal(chunks[1]?.startLine, 14);
  });
});
