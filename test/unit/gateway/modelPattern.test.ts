import assert from 'node:assert/strict';
import { matchesModel, matchingValues, mostSpecific } from '../../../src/core/inference/models/modelPattern';

describe('model patterns: ids and globs in settings', () => {
  it('an id matches itself only, ignoring case', () => {
    assert.ok(matchesModel('Qwen3:8b', 'qwen3:8b'));
    assert.ok(!matchesModel('qwen3', 'qwen3:8b'));
  });
  it('* and ? are wildcards; other characters are literal', () => {
    assert.ok(matchesModel('qwen3*', 'qwen3:8b'));
    assert.ok(matchesModel('*:120b', 'gpt-oss:120b'));
    assert.ok(matchesModel('llama3.?', 'llama3.1'));
    assert.ok(!matchesModel('llama3.?', 'llama3x1x'));
    assert.ok(!matchesModel('a.b*', 'axb'));
    assert.ok(matchesModel('*', 'anything'));
  });
  it('precedence: exact over glob, a longer glob over a shorter one, `*` last', () => {
    const table = { '*': 'all', 'qwen*': 'family', 'qwen3:*': 'qwen3', 'qwen3:8b': 'exact' };
    assert.deepEqual(matchingValues(table, 'qwen3:8b'), ['all', 'family', 'qwen3', 'exact']);
    assert.equal(mostSpecific(table, 'qwen3:8b'), 'exact');
    assert.equal(mostSpecific(table, 'qwen3:32b'), 'qwen3');
    assert.equal(mostSpecific(table, 'qwen2'), 'family');
    assert.equal(mostSpecific(table, 'mistral'), 'all');
    assert.equal(mostSpecific({}, 'mistral'), undefined);
  });
});
