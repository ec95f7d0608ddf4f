// The declared-part marks and word forms (issue 41) attacked by a hostile repository and a hostile
// user: huge names, huge numbers of declarations, names whose characters occur earlier in their
// declaration, non-ASCII and odd line breaks, names at a chunk boundary, many files declaring the
// same names; questions of 10k words, odd endings, non-ASCII, empty or filler only. No crash, no
// hang, the marks the definition gives (declaredMarks.ts `addDeclaredParts`), linear growth.
import * as assert from 'node:assert/strict';
import { chunkRanges, LexicalIndex } from '../../../src/core/search';
import { declaredFormTerms, declaredPartTerm, wordForms } from '../../../src/core/search/lexical/declaredParts';
import { declarationsBySpan, queryTerms } from '../../../src/core/search/lexical/exactTerms';
import { TF_MAX } from '../../../src/core/search/shared/indexTypes';
import { declarationsIn } from '../../../src/core/search/text/declarations';
import { addDeclaredParts, marksByChunk } from './declaredMarks';
import { assertLinearGrowth } from '../properties/growth';

const stat = { mtime: 1, size: 1 };

/** The marks the definition gives each span of a text. */
function expected(text: string, spans: ReadonlyArray<{ start: number; end: number }>): string[][] {
  const found = declarationsIn(text);
  return spans.map(({ start, end }) => {
    const parts = new Set<string>();
    let lo = 0;
    let hi = found.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((found[mid]?.[0] ?? 0) < start) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < found.length && (found[k]?.[0] ?? 0) < end; k++) addDeclaredParts(found[k]?.[1] ?? '', parts);
    return [...parts].map(declaredPartTerm).sort();
  });
}

/** A fresh index of `text` at `path` in chunks of `maxLines`, and the marks the definition gives each chunk. */
function built(text: string, maxLines = 60, path = 'src/x.ts'): { index: LexicalIndex; got: string[][]; want: string[][] } {
  const spans = chunkRanges(path, text, { maxLines });
  const index = new LexicalIndex();
  index.setFileText(path, stat, text, spans);
  return { index, got: marksByChunk(index), want: expected(text, spans) };
}

describe('search: declared-part marks against hostile files', () => {
  it('reads names whose characters occur earlier in their declaration (`class A extends A`, a receiver named like the method)', () => {
    const text = [
      'class AB extends AB {}',
      'class ParcelWatcher extends ParcelWatcher {}',
      'func (w *ParcelWatchers) ParcelWatch() error {',
      'func (s XMLHttpRequestPool) XMLHttp() error {',
      'export class portHole {}',
      'export default class exportParcel {}',
      '  static staticWatcherPool() {',
      `func (w *${'x'.repeat(70)}TokenRefresh) TokenRefresh() error {`,
      '',
    ].join('\n');
    const { got, want } = built(text);
    assert.deepEqual(got, want);
    assert.deepEqual(got[0], ['~export', '~hole', '~http', '~parcel', '~pool', '~port', '~refresh', '~static', '~token', '~watch', '~watcher', '~xml'].sort());
  });

  it('reads names with `$`, digits, non-ASCII letters, emoji and lone surrogates beside them, under LF, CRLF and CR-only line breaks', () => {
    const lines = [
      'export function $parcel$Watcher() {}',
      'class Http2Server3Pool {}',
      'class Ünïcode_Watcher {}',
      'class FooBaré_naïve {}',
      'const parcel😀Watcher = 1;',
      'const tokenRefresher\uD800Pool = 2;',
      'const \uDC00parcelCollector = 3;',
      'class 😀 {}',
      `class ProblemMatcher${'é'.repeat(80)} {}`,
      '  resolveVariableNames(value) {',
    ];
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = lines.join(eol) + eol;
      const { got, want } = built(text, 3);
      assert.deepEqual(got, want, JSON.stringify(eol));
      assert.ok(got.flat().includes('~resolve'), JSON.stringify(eol));
    }
  });

  it('reads a name of 100k characters (one word, snake case, many words) like the definition, without a hang', () => {
    for (const name of ['Parcel'.repeat(20_000), 'parcel_watcher_'.repeat(7_000), `Parcel${'Ab'.repeat(50_000)}Watcher`]) {
      const text = `export class ${name} extends ${name} {}\nfunction ${name}2(x) {}\n`;
      const { got, want } = built(text);
      assert.deepEqual(got, want, name.slice(0, 20));
    }
  });

  it('marks every chunk of a file of 100k declarations as the definition does, names at every chunk boundary', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? `export function parcel${i}Watcher${i % 7}() {}` : i % 3 === 1 ? `class Problem${i % 11}Collector {}` : `  resolveVar${i % 5}(x) {`)).join('\n');
    const { got, want } = built(text, 7);
    assert.equal(got.length, want.length);
    assert.deepEqual(got, want);
  });

  it('posts a mark once per declaring chunk when many files declare the same names, and ranks them by their words', () => {
    const index = new LexicalIndex();
    for (let i = 0; i < 300; i++) {
      const text = `export class ParcelWatcher {\n  run() { return ${i % 2 ? 'parcels' : 'other'}; }\n}\nexport class ParcelWatcher2 {}\n`;
      index.setFileText(`src/f${i}.ts`, stat, text, chunkRanges(`src/f${i}.ts`, text, {}));
    }
    const partial = index.toPartial();
    const watcher = partial.terms.indexOf('~watcher');
    let postings = 0;
    partial.postingTerms.forEach((terms, b) => terms.forEach((t, i) => {
      if (t !== watcher) return;
      postings++;
      assert.equal((partial.postingValues[b]?.[i] ?? 0) & TF_MAX, 1);
    }));
    assert.equal(postings, 300);
    const hits = index.search('watch the parcels', 300);
    assert.ok(hits.length > 0);
    // The files that also use `parcels` come first: the mark only boosts what the words found.
    const top = hits.slice(0, 150).map((h) => Number(/f(\d+)/.exec(h.path)?.[1]) % 2);
    assert.ok(top.every((odd) => odd === 1), JSON.stringify(top));
  });

  it('keeps the marks out of a chunk\'s BM25 length: its length is the tf of its other terms', () => {
    const text = 'export class ParcelWatcher {}\nfunction resolveProblemNames(tokens) {}\nconst parcelCollector = 1;\n';
    const index = new LexicalIndex();
    index.setFileText('src/a.ts', stat, text, [{ startLine: 0, endLine: 3, start: 0, end: text.length }]);
    const partial = index.toPartial();
    let others = 0;
    let marks = 0;
    partial.postingTerms.forEach((terms, b) => terms.forEach((t, i) => {
      const tf = (partial.postingValues[b]?.[i] ?? 0) & TF_MAX;
      assert.ok(tf < TF_MAX);
      if ((partial.terms[t] ?? '').startsWith('~')) marks++;
      else others += tf;
    }));
    assert.ok(marks >= 6);
    assert.equal(partial.lengths[0], others);
  });

  it('reads declarations, marks and names in linear time on hostile files', () => {
    // Declarations whose names occur earlier in the match (receivers), each with many parts.
    const receivers = (n: number): string => Array.from({ length: n }, (_, i) => `func (w *Parcel${i}WatcherPoolTask${i}) Parcel${i}WatcherPool() error {`).join('\n');
    assertLinearGrowth(receivers, (text) => new LexicalIndex().setFileText('src/r.go', stat, text, [{ startLine: 0, endLine: 0, start: 0, end: text.length }]), 300, { label: 'receivers' });
    // One declaration whose name's characters the match repeats just short of it.
    const repeated = (n: number): string => `func (${'a'.repeat(n)}) b${'a'.repeat(n)}() {}\nfunc (${'ab'.repeat(n)}) ${'ab'.repeat(n)}c() {}\n`;
    assertLinearGrowth(repeated, (text) => declarationsIn(text), 2_000, { label: 'repeated' });
    // Many chunks, each declaring a few names.
    const chunked = (n: number): { text: string; spans: ReturnType<typeof chunkRanges> } => {
      const text = Array.from({ length: n }, (_, i) => `export class Problem${i}Collector {}`).join('\n');
      return { text, spans: chunkRanges('src/c.ts', text, { maxLines: 5 }) };
    };
    assertLinearGrowth(chunked, ({ text, spans }) => declarationsBySpan(text, spans), 1_000, { label: 'declarationsBySpan' });
  });
});

describe('search: word forms against hostile questions', () => {
  const index = new LexicalIndex();
  const text = 'export class ParcelWatcher {\n  watch(parcels) {}\n}\nexport function connectNewChannel(connection) {}\n';
  index.setFileText('src/a.ts', stat, text, [{ startLine: 0, endLine: 4, start: 0, end: text.length }]);

  it('answers empty, filler-only and non-ASCII questions without a form', () => {
    for (const q of ['', '   ', 'the of and a to', 'créationé naïve überwatcher 😀', '\uD800\uDC00\uD800', 'ion er e', '-ion -er']) {
      assert.deepEqual(queryTerms(q).filter((t) => t.term.startsWith('~')).map((t) => t.term).filter((t) => !/^~[a-z]+$/.test(t)), [], q);
      assert.doesNotThrow(() => index.search(q, 10), q);
    }
    assert.deepEqual(wordForms('über'), []);
    assert.deepEqual(wordForms('ion'), []);
    assert.deepEqual(wordForms('er'), []);
    assert.deepEqual(wordForms('e'), []);
  });

  it('answers a question of 10k words (ending in -ion, -er, -e) in time linear in its words', () => {
    const endings = ['ion', 'er', 'e', 'tion', 'sion', 'ation'];
    const question = (n: number): string => Array.from({ length: n }, (_, i) => `${'watch'.slice(0, 2 + (i % 4))}${i.toString(26).replace(/[0-9]/g, (d) => 'qrstuvwxyz'[Number(d)] ?? 'q')}${endings[i % endings.length]}`).join(' ');
    const hits = index.search(`${question(10_000)} watch parcels`, 10);
    assert.equal(hits[0]?.path, 'src/a.ts');
    assertLinearGrowth(question, (q) => index.search(q, 10), 1_250, { label: 'question' });
    assertLinearGrowth((n) => Array.from({ length: n }, (_, i) => `${'e'.repeat(1 + (i % 9))}${endings[i % endings.length]}`), (words) => declaredFormTerms(words), 2_000, { label: 'declaredFormTerms' });
    assertLinearGrowth((n) => `${'ab'.repeat(n)}ion`, (word) => wordForms(word), 4_000, { label: 'wordForms' });
  });

  it('never turns a term or a declared form into a penalty while the removed chunks a segment still lists outnumber the live ones', () => {
    // 12 files saved, 11 of them removed since (tombstones in the segment, still in its lists):
    // `watcher` is in 12 chunks' lists and `parcel` in 14, but only 3 chunks live.
    const saved = new LexicalIndex();
    for (let i = 0; i < 12; i++) {
      const old = `// the watcher of parcels ${i}\nconst watcher${i} = 1;\n`;
      saved.setFileText(`src/old${i}.ts`, stat, old, [{ startLine: 0, endLine: 1, start: 0, end: old.length }]);
    }
    const back = LexicalIndex.deserialize(saved.serialize('k'), 'k');
    assert.ok(back instanceof LexicalIndex);
    for (let i = 0; i < 11; i++) back.removeFile(`src/old${i}.ts`);
    const a = 'export class ParcelWatcher {\n  watch(parcels) {}\n}\n';
    const c = '// export class ParcelWatcher {\n  watch(parcels) {}\n}\n';
    back.setFileText('src/a.ts', stat, a, [{ startLine: 0, endLine: 2, start: 0, end: a.length }]);
    back.setFileText('src/c.ts', stat, c, [{ startLine: 0, endLine: 2, start: 0, end: c.length }]);
    for (const q of ['watch parcels', 'watcher', 'parcels']) for (const h of back.search(q, 5)) assert.ok(h.score > 0, `${q}: ${h.path} ${h.score}`);
    // Declaring the watcher adds to a chunk's score: the declaring chunk above the same words in a
    // comment, the chunk without `watch` last.
    assert.deepEqual(back.search('watch parcels', 5).map((h) => h.path), ['src/a.ts', 'src/c.ts', 'src/old11.ts']);
  });

  it('ranks the chunk declaring the agent noun first for a verb, and finds nothing by a form alone', () => {
    assert.equal(index.search('watch parcels', 5)[0]?.path, 'src/a.ts');
    assert.deepEqual(index.search('watcher', 5).map((h) => h.path), ['src/a.ts']);
    assert.deepEqual(index.search('connector', 5), []);
  });
});

