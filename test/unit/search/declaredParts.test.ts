// Declared-part marks and word forms (issue 41): a question's verb matches the agent noun a
// declaration names (`collect` -> `ProblemCollector`, `watch` -> `ParcelWatcher`), and an action
// noun its verb (`connection` -> `connectNewChannel`), in declarations only.
import * as assert from 'node:assert/strict';
import { chunkText, LexicalIndex } from '../../../src/core/search';
import { declaredFormTerms, wordForms } from '../../../src/core/search/lexical/declaredParts';
import { declarationsBySpan, queryTerms } from '../../../src/core/search/lexical/exactTerms';
import { declarationsIn } from '../../../src/core/search/text/declarations';
import { marksByChunk } from './declaredMarks';
import { assertLinearGrowth } from '../properties/growth';

const stat = { mtime: 1, size: 1 };

function indexOf(files: Record<string, string>): LexicalIndex {
  const index = new LexicalIndex();
  for (const [path, text] of Object.entries(files)) index.setFile(path, stat, chunkText(path, text));
  return index;
}

/** The same index read back from its segment (the marks persisted). */
function saved(index: LexicalIndex): LexicalIndex {
  const back = LexicalIndex.deserialize(index.serialize('k'), 'k');
  assert.ok(back instanceof LexicalIndex);
  return back;
}

const scoreOf = (index: LexicalIndex, query: string, path: string): number => index.search(query, 50).find((h) => h.path === path)?.score ?? 0;

describe('search: word forms matched in declarations', () => {
  it('gives a verb its agent nouns and an action noun its verb, never the word itself', () => {
    assert.ok(wordForms('watch').includes('watcher'));
    assert.ok(wordForms('collect').includes('collector'));
    assert.ok(wordForms('resolve').includes('resolver'));
    assert.ok(wordForms('compute').includes('computer'));
    assert.ok(wordForms('generate').includes('generator'));
    assert.ok(wordForms('commit').includes('committer'));
    assert.ok(wordForms('connection').includes('connect'));
    assert.ok(wordForms('connection').includes('connector'));
    assert.ok(wordForms('creation').includes('create'));
    for (const w of ['watch', 'connection', 'resolve']) assert.ok(!wordForms(w).includes(w));
    assert.deepEqual(wordForms('run'), []); // too short to tell
    assert.deepEqual(wordForms('x2go'), []);
  });

  it('looks the forms up as declared-part marks only, each taking its idf from the form as a plain word', () => {
    assert.deepEqual(declaredFormTerms(['watch']).find((t) => t.plain === 'watcher'), { term: '~watcher', plain: 'watcher' });
    const terms = queryTerms('watch the files');
    const form = terms.find((t) => t.term === '~watcher');
    assert.ok(form);
    assert.equal(form.boostOnly, true);
    assert.equal(form.idfTerm, 'watcher');
    assert.ok(!terms.some((t) => t.term === 'watcher'), 'a form is never a plain query term');
  });

  for (const read of ['in memory', 'from its segment'] as const) {
    it(`ranks a chunk declaring the agent noun of the question's verb above one that mentions the words more often (${read})`, () => {
      const built = indexOf({
        'src/tasks/problemCollector.ts': 'export class ProblemCollector {\n  add(problem) { this.problems.push(problem); }\n}\n',
        'src/tasks/taskOutput.ts': 'export function readOutput(task) {\n  // collect the problem lines; collect a problem per match\n  return collect(task.output, problem);\n}\n',
      });
      const index = read === 'in memory' ? built : saved(built);
      const hits = index.search('collect problems', 10).map((h) => h.path);
      assert.equal(hits[0], 'src/tasks/problemCollector.ts', hits.join(', '));
    });
  }

  it('does not match a form in free text or in a path', () => {
    const plain = indexOf({
      'src/a/sink.ts': 'export function drain(x) {\n  return watch(x);\n}\n',
      'src/b/walker.ts': 'export function other(y) {\n  return y; // the walker\n}\n',
    });
    const mentioned = indexOf({
      'src/a/sink.ts': 'export function drain(x) {\n  return watch(x);\n}\n',
      'src/b/watcher.ts': 'export function other(y) {\n  return y; // the watcher\n}\n',
    });
    assert.equal(scoreOf(mentioned, 'watch', 'src/a/sink.ts'), scoreOf(plain, 'watch', 'src/a/sink.ts'));
    assert.deepEqual(mentioned.search('watch', 10).map((h) => h.path), ['src/a/sink.ts']);
  });

  it('boosts only chunks the question\'s words found: a declared form alone finds nothing', () => {
    const index = indexOf({ 'src/x.ts': 'export class FileWatcher {\n  start() {}\n}\n', 'src/y.ts': 'export function watch(path) {\n  return path;\n}\n' });
    assert.deepEqual(index.search('watch', 10).map((h) => h.path), ['src/y.ts']);
  });

  it('weighs a form no more than the form as a plain word: a form every file uses adds less', () => {
    const files = (fillerWord: string): Record<string, string> => {
      const out: Record<string, string> = { 'src/events/bus.ts': 'export interface EventPublisher {\n  publish(event): void;\n}\n' };
      for (let i = 0; i < 40; i++) out[`src/f${i}.ts`] = `export function f${i}(event) {\n  return ${fillerWord}.publish(event);\n}\n`;
      return out;
    };
    const rare = scoreOf(indexOf(files('sender')), 'publish events', 'src/events/bus.ts');
    const common = scoreOf(indexOf(files('publisher')), 'publish events', 'src/events/bus.ts');
    assert.ok(common < rare, `${common} < ${rare}`);
  });

  it('keeps the marks of a chunk\'s declared names\' parts, once each', () => {
    const text = 'class ParcelWatcher {}\nfunction watcherPath(path) {}\n';
    const index = new LexicalIndex();
    index.setFileText('src/a.ts', stat, text, [{ startLine: 0, endLine: 1, start: 0, end: text.length }]);
    assert.deepEqual(marksByChunk(index), [['~parcel', '~path', '~watcher']]);
  });

  it('keeps no mark for a name of one word (an abstraction or a verb many types share)', () => {
    const text = 'export interface Publisher {}\nfunction connect(address) {}\nclass EventPublisher {}\n';
    const built = new LexicalIndex();
    built.setFileText('src/p.ts', stat, text, [
      { startLine: 0, endLine: 1, start: 0, end: text.indexOf('class') },
      { startLine: 2, endLine: 2, start: text.indexOf('class'), end: text.length },
    ]);
    assert.deepEqual(marksByChunk(built), [[], ['~event', '~publisher']]);
    const index = indexOf({
      'src/a.ts': 'export interface Publisher {\n  publish(event): void;\n}\n',
      'src/b.ts': 'export interface Publishes {\n  publish(event): void;\n}\n',
    });
    const a = scoreOf(index, 'publish events', 'src/a.ts');
    assert.ok(a > 0);
    assert.equal(a, scoreOf(index, 'publish events', 'src/b.ts'));
  });

  it('reads a declared name where its characters are, with its parts as the chunk\'s other words (filler and one letter dropped, stems kept)', () => {
    const text = 'function func(x) {}\nexport class TheHTTPServers {}\nconst get_a_token = 1;\nconst get_the_cart_token = 2;\n';
    const index = new LexicalIndex();
    index.setFileText('src/f.ts', stat, text, [{ startLine: 0, endLine: 2, start: 0, end: text.length }]);
    assert.deepEqual(marksByChunk(index), [['~cart', '~http', '~server', '~token']]);
    assert.deepEqual(declarationsIn(text).map(([, name, at]) => text.slice(at, at + name.length)), ['func', 'TheHTTPServers', 'get_a_token', 'get_the_cart_token']);
  });

  it('keeps each term\'s mark right after a compaction gave the terms new ids', () => {
    const gone: Record<string, string> = {};
    for (let i = 0; i < 30; i++) gone[`src/old/f${i}.ts`] = `export class Vanished${i}Thing${i} {\n  run() {}\n}\n`;
    const later = {
      'src/tasks/parcelCollector.ts': 'export class ParcelCollector {\n  add(parcel) { this.parcels.push(parcel); }\n}\n',
      'src/tasks/output.ts': 'export function readOutput(task) {\n  // collect the parcel lines; collect a parcel per match\n  return collect(task.output, parcel);\n}\n',
      'src/tasks/watcherPool.ts': 'export class WatcherPool {\n  watch(pool) { return pool; }\n}\n',
    };
    const index = indexOf({ ...gone, 'src/keep/parcelWatcher.ts': 'export class ParcelWatcher {\n  watch() {}\n}\n' });
    for (const path of Object.keys(gone)) index.removeFile(path);
    index.compact();
    for (const [path, text] of Object.entries(later)) index.setFile(path, stat, chunkText(path, text));
    const fresh = indexOf({ 'src/keep/parcelWatcher.ts': 'export class ParcelWatcher {\n  watch() {}\n}\n', ...later });
    for (const query of ['collect parcels', 'watch parcels', 'watch the pool', 'collector', 'parcel']) {
      const hits = (i: LexicalIndex): string[] => i.search(query, 10).map((h) => `${h.path} ${h.score.toFixed(6)}`);
      assert.deepEqual(hits(index), hits(fresh), query);
    }
  });

  it('reads the declared parts of hostile text in linear time', () => {
    // One span declaring thousands of distinct names of many parts (a generated file).
    const input = (n: number): string => Array.from({ length: n }, (_, i) => `export function getPart${i}AndPart${i * 7}OfThing${i % 13}() {}`).join('\n');
    assertLinearGrowth(input, (text) => declarationsBySpan(text, [{ startLine: 0, endLine: 0, start: 0, end: text.length }]), 500, { label: 'declarationsBySpan' });
  });
});
