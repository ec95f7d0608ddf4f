import assert from 'node:assert/strict';
import { call, useSandbox, type ErrorEnvelope } from './helpers';

interface ModelRecord {
  id: string;
  object: string;
  created: number;
  owned_by: string;
  root: string;
  aliases: string[];
  max_model_len: number;
  permission: Array<Record<string, unknown>>;
  [extra: string]: unknown;
}

const FIELDS = ['id', 'object', 'created', 'owned_by', 'root', 'aliases', 'max_model_len', 'permission'];

describe('sandbox inference: /v1/models', () => {
  describe('contract profile', () => {
    const sb = useSandbox();
    const get = (path: string): ReturnType<typeof call> => call(`${sb().inferenceUrl}${path}`, { headers: { authorization: `Bearer ${sb().credentials.apiKey}` } });

    it('lists the catalogue with exactly the contract fields', async () => {
      const r = await get('/models');
      assert.equal(r.status, 200);
      const body = r.json as { object: string; data: ModelRecord[] };
      assert.equal(body.object, 'list');
      const ids = body.data.map((m) => m.id);
      for (const id of ['gpt-oss:120b', 'qwen3:30b', 'qwen3-vl:8b', 'mistral-small3.2:24b', 'smollm2:135m', 'deepseek-ocr:3b', 'bge-m3:567m', 'granite-embedding:278m', 'qwen3-reranker:4b', 'whisper-large-v3']) {
        assert.ok(ids.includes(id), id);
      }
      for (const model of body.data) {
        assert.deepEqual(Object.keys(model).sort(), [...FIELDS].sort(), model.id);
        assert.equal(model.object, 'model');
        assert.ok(Number.isInteger(model.created));
        assert.ok(Number.isInteger(model.max_model_len) && model.max_model_len >= 448);
        assert.ok(Array.isArray(model.aliases));
        const permission = model.permission[0];
        assert.ok(permission);
        assert.equal(permission.object, 'model_permission');
        assert.equal(typeof permission.id, 'string');
        for (const flag of ['allow_sampling', 'allow_view', 'allow_fine_tuning']) assert.equal(typeof permission[flag], 'boolean');
      }
      assert.equal(body.data.find((m) => m.id === 'gpt-oss:120b')?.max_model_len, 131072);
      assert.equal(body.data.find((m) => m.id === 'bge-m3:567m')?.max_model_len, 8192);
      assert.equal(body.data.find((m) => m.id === 'smollm2:135m')?.max_model_len, 512);
    });

    it('retrieves one model by id or alias; unknown: 404 model_not_found', async () => {
      const one = await get('/models/qwen3-reranker:4b');
      assert.equal(one.status, 200);
      assert.equal((one.json as ModelRecord).id, 'qwen3-reranker:4b');
      const alias = await get('/models/gpt-oss-120b');
      assert.equal((alias.json as ModelRecord).id, 'gpt-oss:120b');
      const missing = await get('/models/nope:1b');
      assert.equal(missing.status, 404);
      const err = (missing.json as ErrorEnvelope).error;
      assert.equal(err.code, 'model_not_found');
      assert.equal(err.param, 'model');
    });
  });

  describe('production profile', () => {
    const sb = useSandbox({ profile: 'production' });
    it('adds unknown extra fields to the records', async () => {
      const r = await call(`${sb().inferenceUrl}/models`, { headers: { authorization: `Bearer ${sb().credentials.apiKey}` } });
      const body = r.json as { data: ModelRecord[] };
      const model = body.data[0];
      assert.ok(model);
      assert.ok('parent' in model);
      assert.ok('allow_logprobs' in (model.permission[0] ?? {}));
    });
  });
});
