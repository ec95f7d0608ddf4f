import assert from 'node:assert/strict';
import { parseToolCallingOverrides, supportsToolCalling } from '../../../src/core/inference/models/capabilities';

describe('supportsToolCalling', () => {
  it('recognises tool-calling chat families and refuses the others', () => {
    for (const id of ['gpt-oss:120b', 'qwen3:30b', 'qwen3-coder:30b', 'mistral-small3.2:24b', 'llama3.1:8b']) {
      assert.equal(supportsToolCalling({ id, kind: 'chat' }), true, id);
    }
    for (const id of ['smollm2:135m', 'qwen3-vl:8b', 'llama3:8b']) {
      assert.equal(supportsToolCalling({ id, kind: 'chat' }), false, id);
    }
  });

  it('never offers tools to models that are not chat models', () => {
    assert.equal(supportsToolCalling({ id: 'gpt-oss:120b', kind: 'embedding' }), false);
    assert.equal(supportsToolCalling({ id: 'qwen3-vl:8b', kind: 'vision' }), false);
  });

  it('lets an override win either way', () => {
    assert.equal(supportsToolCalling({ id: 'smollm2:135m', kind: 'chat' }, { 'smollm2:135m': true }), true);
    assert.equal(supportsToolCalling({ id: 'gpt-oss:120b', kind: 'chat' }, { 'gpt-oss:120b': false }), false);
  });
});

describe('parseToolCallingOverrides', () => {
  it('keeps id -> boolean entries and drops everything else', () => {
    assert.deepEqual(parseToolCallingOverrides({ 'a:1b': true, 'b:2b': false, 'c:3b': 'yes', 'd:4b': null }), { 'a:1b': true, 'b:2b': false });
    assert.deepEqual(parseToolCallingOverrides(undefined), {});
    assert.deepEqual(parseToolCallingOverrides(['a']), {});
    assert.deepEqual(parseToolCallingOverrides('gpt-oss:120b'), {});
  });
});
