import assert from 'node:assert/strict';
import { infer, useSandbox, type ErrorEnvelope } from './helpers';

interface EmbeddingResponse {
  object: string;
  data: Array<{ object: string; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
  [extra: string]: unknown;
}

function vector(r: { json: unknown }, i = 0): number[] {
  const e = (r.json as EmbeddingResponse).data[i]?.embedding;
  assert.ok(Array.isArray(e));
  return e;
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, v, i) => sum + v * (b[i] ?? 0), 0);
}

describe('sandbox inference: embeddings', () => {
  const sb = useSandbox();

  it('returns a list of normalised vectors with index, model and usage', async () => {
    const r = await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: ['virtual machine', 'cloud network', 'virtual machines on the cloud'] });
    assert.equal(r.status, 200);
    const body = r.json as EmbeddingResponse;
    assert.deepEqual(Object.keys(body).sort(), ['data', 'model', 'object', 'usage']);
    assert.equal(body.object, 'list');
    assert.equal(body.model, 'bge-m3:567m');
    assert.deepEqual(
      body.data.map((d) => [d.object, d.index]),
      [
        ['embedding', 0],
        ['embedding', 1],
        ['embedding', 2],
      ],
    );
    for (let i = 0; i < 3; i++) {
      const v = vector(r, i);
      assert.equal(v.length, 1024);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    }
    // ceil(15/4) + ceil(13/4) + ceil(29/4)
    assert.deepEqual(body.usage, { prompt_tokens: 4 + 4 + 8, total_tokens: 16 });
    assert.ok(cosine(vector(r, 0), vector(r, 2)) > cosine(vector(r, 0), vector(r, 1)), 'shared words are closer');
  });

  it('is deterministic and the dimension depends on the model', async () => {
    const a = await infer(sb(), '/embeddings', { model: 'granite-embedding:278m', input: 'hello world' });
    const b = await infer(sb(), '/embeddings', { model: 'granite-embedding:278m', input: 'hello world' });
    assert.deepEqual(vector(a), vector(b));
    assert.equal(vector(a).length, 768);
  });

  it('encoding_format base64 carries the same float32 values', async () => {
    const floats = vector(await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'abc def' }));
    const r = await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'abc def', encoding_format: 'base64' });
    const b64 = (r.json as EmbeddingResponse).data[0]?.embedding;
    assert.equal(typeof b64, 'string');
    const buf = Buffer.from(String(b64), 'base64');
    const decoded = Array.from(new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4));
    assert.deepEqual(decoded, floats);
  });

  const bad: Array<[string, Record<string, unknown>, number, string]> = [
    ['token ids', { input: [101, 2023, 102] }, 400, 'input'],
    ['nested token ids', { input: [[101, 2023]] }, 400, 'input'],
    ['a single token id', { input: 42 }, 400, 'input'],
    ['missing input', { input: undefined }, 400, 'input'],
    ['empty array', { input: [] }, 400, 'input'],
    ['empty string', { input: ['ok', ''] }, 400, 'input'],
    ['too long for granite (512)', { model: 'granite-embedding:278m', input: 'w'.repeat(2049) }, 400, 'input'],
    ['bad encoding_format', { encoding_format: 'int8' }, 400, 'encoding_format'],
    ['a chat model', { model: 'gpt-oss:120b' }, 400, 'model'],
    ['missing model', { model: undefined }, 400, 'model'],
    ['unknown model', { model: 'e5:999m' }, 404, 'model'],
  ];
  for (const [title, overrides, status, param] of bad) {
    it(`${status} param ${param}: ${title}`, async () => {
      const body: Record<string, unknown> = { model: 'bge-m3:567m', input: 'text', ...overrides };
      for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
      const r = await infer(sb(), '/embeddings', body);
      assert.equal(r.status, status);
      const err = (r.json as ErrorEnvelope).error;
      assert.equal(err.param, param);
      assert.equal(err.type, 'invalid_request_error');
      if (status === 404) assert.equal(err.code, 'model_not_found');
    });
  }
});

describe('sandbox inference: embeddings, production profile', () => {
  const sb = useSandbox({ profile: 'production' });
  it('adds unknown extra fields (id, created)', async () => {
    const body = (await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'x' })).json as EmbeddingResponse;
    assert.equal(typeof body.id, 'string');
    assert.equal(typeof body.created, 'number');
  });
});
