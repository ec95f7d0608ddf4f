import assert from 'node:assert/strict';
import { supportsToolCalling } from '../../../src/core/inference/models/capabilities';
import { ModelCatalog } from '../../../src/core/inference/models/catalog';
import { applyCapabilityOverride, overrideFor, parseCapabilityOverrides } from '../../../src/core/inference/models/overrides';
import type { ModelInfo } from '../../../src/core/inference/models/types';
import { HttpTransport } from '../../../src/core/http/transport';
import { Fixtures, json } from '../console/helpers';

const model = (id: string, kind: ModelInfo['kind'] = 'chat', maxModelLen: number | undefined = 8192): ModelInfo => ({ id, kind, created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen });

describe('capability overrides: stratus.models.overrides', () => {
  it('keeps valid fields, maps the issue\'s kind names, and names what it ignores', () => {
    const { table, ignored } = parseCapabilityOverrides({
      'a*': { kind: 'audio', contextLength: 65536, maxOutputTokens: 4096, toolCalling: false, vision: true, reasoning: true },
      b: { kind: 'completion', contextLength: -1, toolCalling: 'yes', colour: 'red' },
      c: 'chat',
    });
    assert.deepEqual(table['a*'], { kind: 'speech', contextLength: 65536, maxOutputTokens: 4096, toolCalling: false, vision: true, reasoning: true });
    assert.deepEqual(table.b, { kind: 'chat' });
    assert.deepEqual(ignored, ['b.contextLength (not a whole number of tokens)', 'b.toolCalling (not true or false)', 'b.colour (unknown field)', 'c (not an object)']);
  });

  it('precedence field by field: exact over glob, longer glob over shorter', () => {
    const { table } = parseCapabilityOverrides({ '*': { toolCalling: true, contextLength: 4096 }, 'qwen3*': { contextLength: 32768 }, 'qwen3:8b': { toolCalling: false } });
    assert.deepEqual(overrideFor(table, 'qwen3:8b'), { toolCalling: false, contextLength: 32768 });
    assert.deepEqual(overrideFor(table, 'qwen3:32b'), { toolCalling: true, contextLength: 32768 });
    assert.deepEqual(overrideFor(table, 'mistral'), { toolCalling: true, contextLength: 4096 });
  });

  it('applies to the model: context replaces max_model_len, output stays below it, vision turns chat into vision and back', () => {
    assert.deepEqual(applyCapabilityOverride(model('m'), { contextLength: 4096, maxOutputTokens: 10_000 }), { ...model('m'), maxModelLen: 4096, maxOutputTokens: 4095 });
    assert.equal(applyCapabilityOverride(model('m'), { vision: true }).kind, 'vision');
    assert.equal(applyCapabilityOverride(model('m', 'vision'), { vision: false }).kind, 'chat');
    assert.equal(applyCapabilityOverride(model('m', 'embedding'), { vision: true }).kind, 'embedding');
    assert.equal(applyCapabilityOverride(model('m'), { kind: 'rerank' }).kind, 'rerank');
    assert.deepEqual(applyCapabilityOverride(model('m'), {}), model('m'));
  });

  it('tool calling: the override wins over the family guess and the older per-id setting', () => {
    assert.equal(supportsToolCalling({ id: 'gpt-oss:120b', kind: 'chat' }), true);
    assert.equal(supportsToolCalling({ id: 'gpt-oss:120b', kind: 'chat', toolCalling: false }, { 'gpt-oss:120b': true }), false);
    assert.equal(supportsToolCalling({ id: 'smollm2:135m', kind: 'chat', toolCalling: true }), true);
  });

  it('the catalog applies them once, to every listing, re-read each time', async () => {
    const fx = new Fixtures();
    const stub = await fx.stub((_req, res) => json(res, 200, { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', max_model_len: 8192 }, { id: 'bge-m3', object: 'model', max_model_len: 512 }] }));
    let setting: unknown = { 'qwen3*': { contextLength: 40960, toolCalling: false } };
    const catalog = new ModelCatalog(new HttpTransport({ baseUrl: `${stub.url}/v1` }), { capabilities: () => parseCapabilityOverrides(setting).table });
    try {
      const first = await catalog.find('qwen3:8b');
      assert.equal(first?.maxModelLen, 40960);
      assert.equal(first?.toolCalling, false);
      assert.equal((await catalog.find('bge-m3'))?.kind, 'embedding');
      setting = { 'bge-m3': { kind: 'chat' } };
      assert.equal((await catalog.find('qwen3:8b'))?.maxModelLen, 8192, 'a changed setting applies without a refetch');
      assert.equal((await catalog.find('bge-m3'))?.kind, 'chat');
      assert.equal(catalog.kindOf('bge-m3'), 'chat');
      assert.equal(stub.requests.length, 1);
    } finally {
      await fx.closeAll();
    }
  });
});
