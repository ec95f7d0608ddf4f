// Retrieval quality on a real code corpus that is not ours: the sources of undici (node_modules),
// copied into a throwaway workspace, with 40 natural-language questions and the files answering
// each (test/fixtures/search/undici-questions.json). Prints recall@10 / recall@50 of the candidate
// stage and MRR of the final (reranked) order; asserts floors so a regression fails.
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { searchInference, type SearchEngine } from '../../../src/core/search';
import { useSandbox } from '../sandbox/helpers';
import { engineFor, TempWorkspace } from './helpers';

interface Question { q: string; files: string[] }

const fixture = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'search', 'undici-questions.json'), 'utf8')) as { questions: Question[] };
const undici = join(__dirname, '..', '..', '..', 'node_modules', 'undici');

/** Share of a question's answering files among the files of the first k candidates, averaged. */
function recallAt(engine: SearchEngine, k: number): number {
  let sum = 0;
  for (const { q, files } of fixture.questions) {
    const found = new Set(engine.lexical(q, k).map((h) => h.path));
    sum += files.filter((f) => found.has(f)).length / files.length;
  }
  return sum / fixture.questions.length;
}

function reciprocalRank(paths: string[], answers: string[]): number {
  const i = paths.findIndex((p) => answers.includes(p));
  return i < 0 ? 0 : 1 / (i + 1);
}

describe('search: retrieval quality on undici (40 questions)', function () {
  this.timeout(60_000);
  const sandbox = useSandbox();
  let ws: TempWorkspace;
  let engine: SearchEngine;
  let client: InferenceClient;

  before(async () => {
    ws = new TempWorkspace();
    cpSync(join(undici, 'lib'), join(ws.root, 'lib'), { recursive: true });
    cpSync(join(undici, 'index.js'), join(ws.root, 'index.js'));
    client = createInferenceClient({ baseUrl: sandbox().inferenceUrl, apiKey: () => Promise.resolve(sandbox().credentials.apiKey) });
    engine = engineFor(ws.root, { settings: { candidates: 50, results: 20 }, inference: searchInference(() => client) }).engine;
    await engine.open();
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  it('has at least 30 questions whose answering files exist in the corpus', () => {
    assert.ok(fixture.questions.length >= 30);
    const indexed = new Set(fixture.questions.flatMap((q) => q.files).filter((f) => engine.lexical(f.split('/').pop()?.replace('.js', '') ?? '', 1000).some((h) => h.path === f)));
    assert.equal(indexed.size, new Set(fixture.questions.flatMap((q) => q.files)).size);
  });

  it('candidate recall@10 and recall@50, MRR of the local and the reranked order', async () => {
    const r10 = recallAt(engine, 10);
    const r50 = recallAt(engine, 50);
    let mrrLocal = 0;
    let mrrFinal = 0;
    let reranked = 0;
    for (const { q, files } of fixture.questions) {
      const result = await engine.search(q);
      if (result.reranked) reranked++;
      mrrLocal += reciprocalRank(engine.lexical(q, 20).map((h) => h.path), files);
      mrrFinal += reciprocalRank(result.hits.map((h) => h.path), files);
    }
    const n = fixture.questions.length;
    mrrLocal /= n;
    mrrFinal /= n;
    const line = `retrieval quality (undici, ${n} questions): recall@10 ${r10.toFixed(3)}, recall@50 ${r50.toFixed(3)}, MRR local ${mrrLocal.toFixed(3)}, MRR final (sandbox rerank) ${mrrFinal.toFixed(3)}`;
    process.stdout.write(`      ${line}\n`);
    assert.equal(reranked, n, 'every final order came from the rerank endpoint');
    assert.ok(r10 >= 0.6, line);
    assert.ok(r50 >= 0.8, line);
    assert.ok(mrrFinal >= 0.4, line);
  });
});
