// The hybrid stage (issue 41): with an embedding model configured, the embedding candidates join
// the lexical ones before rerank, the union whole: cut to `candidates`, the fused order dropped an
// answer that only the vectors found, when it was not their first.
import * as assert from 'node:assert/strict';
import type { SearchInference } from '../../../src/core/search';
import { DEFAULT_SEARCH_SETTINGS } from '../../../src/core/search';
import { engineFor, paths, TempWorkspace } from './helpers';

const noRerank = { ...DEFAULT_SEARCH_SETTINGS.rerank, enabled: false };

/** A stand-in embedding, no model: each text's vector is chosen by a word it holds. */
function standIn(vectorOf: (text: string) => number[]): SearchInference {
  return {
    listModels: () => Promise.resolve([{ id: 'stand-in', kind: 'embedding', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 512 }]),
    embed: (request) => {
      const inputs = Array.isArray(request.input) ? request.input : [request.input];
      return Promise.resolve({ embeddings: inputs.map(vectorOf), model: request.model, usage: undefined, meta: { status: 200, requestId: undefined, rateLimit: undefined } });
    },
    rerank: () => Promise.reject(new Error('no rerank here')),
  };
}

describe('search: the hybrid stage', () => {
  const ws = new TempWorkspace();
  before(() => {
    ws.write('src/alpha.ts', 'export function alphaBeta() {\n  return "alpha beta";\n}\n');
    ws.write('src/alphaToo.ts', 'export function alphaOnly() {\n  return "alpha beta gamma";\n}\n');
    ws.write('src/answer.ts', 'export function zetaRenewal() {\n  return "renew the zeta lease";\n}\n');
    ws.write('src/other.ts', 'export function unrelated() {\n  return "nothing here";\n}\n');
  });
  after(() => ws.dispose());

  it('hands rerank the union of the lexical and the embedding candidates, an answer only the vectors found among them', async () => {
    const vectorOf = (text: string): number[] => {
      if (text === 'alpha beta' || text.includes('alphaBeta')) return [1, 0, 0];
      if (text.includes('zeta')) return [0.9, Math.sqrt(1 - 0.81), 0];
      if (text.includes('alphaOnly')) return [0, 1, 0];
      return [0, 0, 1];
    };
    const rig = engineFor(ws.root, { settings: { candidates: 2, embeddingModel: 'stand-in', rerank: noRerank }, inference: standIn(vectorOf) });
    await rig.engine.open();
    assert.deepEqual(paths(rig.engine.lexical('alpha beta')), ['src/alpha.ts', 'src/alphaToo.ts'], 'the lexical candidates alone miss the answer');
    const local = await rig.engine.local('alpha beta');
    assert.deepEqual(local.notes, []);
    assert.deepEqual(paths(local.hits), ['src/alpha.ts', 'src/alphaToo.ts', 'src/answer.ts']);
    assert.deepEqual(local.hits.map((h) => h.localRank), [1, 2, 3]);
    rig.engine.dispose();
  });

  it('without an embedding model, the lexical candidates as they are', async () => {
    const rig = engineFor(ws.root, { settings: { candidates: 2, rerank: noRerank } });
    await rig.engine.open();
    assert.deepEqual(paths((await rig.engine.local('alpha beta')).hits), ['src/alpha.ts', 'src/alphaToo.ts']);
    rig.engine.dispose();
  });
});
