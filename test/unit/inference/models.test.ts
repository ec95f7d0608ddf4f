import assert from 'node:assert/strict';
import { CancelledError } from '../../../src/core/errors';
import { inferModelKind, ModelCatalog, type ModelKind } from '../../../src/core/inference';
import { sendJson } from '../http/helpers/server';
import { MODEL_RECORDS } from './helpers/contract';
import { startRig, type Rig } from './helpers/client';

describe('inference/models', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  afterEach(() => rig.reset());

  const serveModels = (): void => {
    rig.handler = (_q, res) => sendJson(res, 200, { object: 'list', data: MODEL_RECORDS });
  };

  it('lists /v1/models with max_model_len, aliases and an inferred kind', async () => {
    serveModels();
    const models = await rig.client().models.list();
    assert.equal(rig.server.requests[0]?.url, '/v1/models');
    assert.equal(rig.server.requests[0]?.method, 'GET');
    assert.deepEqual(
      models.map((m) => [m.id, m.kind, m.maxModelLen]),
      [
        ['gpt-oss:120b', 'chat', 131072],
        ['qwen3-vl:8b', 'vision', 32768],
        ['bge-m3:567m', 'embedding', 8192],
        ['qwen3-reranker:4b', 'rerank', 8192],
        ['whisper-large-v3', 'speech', 448],
        ['granite-embedding:278m', 'embedding', 512],
      ],
    );
    assert.equal(models[0]?.ownedBy, 'stratus');
    assert.deepEqual(models[5]?.aliases, ['granite-embed']);
  });

  it('serves from cache within the TTL, refetches after it and on refresh()', async () => {
    serveModels();
    let now = 1_000;
    const client = rig.client();
    // A catalog of our own on the client's transport, to drive its clock.
    const catalog = new ModelCatalog(client.transport, { ttlMs: 60_000, now: () => now });
    await catalog.list();
    await catalog.list();
    assert.equal(rig.server.requests.length, 1);
    now += 61_000;
    await catalog.list();
    assert.equal(rig.server.requests.length, 2);
    await catalog.refresh();
    assert.equal(rig.server.requests.length, 3);
    catalog.invalidate();
    await catalog.find('granite-embed').then((m) => assert.equal(m?.id, 'granite-embedding:278m'));
    assert.equal(rig.server.requests.length, 4);
  });

  it('shares one request between concurrent callers; an abort only cancels its own wait', async () => {
    // The server holds its answer until the test releases it: no timing involved.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    rig.handler = (_q, res) => {
      received();
      void released.then(() => sendJson(res, 200, { object: 'list', data: MODEL_RECORDS }));
    };
    const models = rig.client().models;
    const controller = new AbortController();
    const a = models.list();
    const b = models.list({ signal: controller.signal });
    await arrived;
    controller.abort();
    await assert.rejects(b, CancelledError);
    release();
    assert.equal((await a).length, MODEL_RECORDS.length);
    assert.equal(rig.server.requests.length, 1);
  });

  it('a listing in flight with a rotated key is neither joined nor cached after invalidate() (issue 31, item 6)', async () => {
    const OLD = 'sk-rotated-old-key-0000';
    const NEW = 'sk-rotated-new-key-1111';
    let key = OLD;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let oldArrived = (): void => undefined;
    const oldSeen = new Promise<void>((resolve) => {
      oldArrived = resolve;
    });
    rig.handler = async (q, res) => {
      if (q.headers.authorization === `Bearer ${OLD}`) {
        oldArrived();
        await held;
        sendJson(res, 401, { error: { message: 'Invalid API key', type: 'authentication_error' } });
        return;
      }
      sendJson(res, 200, { object: 'list', data: MODEL_RECORDS });
    };
    const client = rig.client({ apiKey: () => Promise.resolve(key) });
    const first = client.models.list().then(() => 'listed', (e: unknown) => (e as Error).name);
    await oldSeen;
    // The new key is stored while the start-up listing (old key) is still unanswered.
    key = NEW;
    client.models.invalidate();
    const second = client.models.list();
    release();
    assert.equal(await first, 'AuthError');
    assert.ok((await second).some((m) => m.id === 'gpt-oss:120b'), 'listed with the new key');
    assert.deepEqual(rig.server.requests.map((r) => r.headers.authorization), [`Bearer ${OLD}`, `Bearer ${NEW}`]);
    await client.models.list();
    assert.equal(rig.server.requests.length, 2, 'the new list is cached');
  });

  it('applies caller overrides, re-read on every use', async () => {
    serveModels();
    let overrides: Record<string, ModelKind> = { 'gpt-oss:120b': 'ocr' };
    const models = rig.client({ modelKindOverrides: () => overrides }).models;
    assert.equal((await models.find('gpt-oss:120b'))?.kind, 'ocr');
    overrides = {};
    assert.equal((await models.find('gpt-oss:120b'))?.kind, 'chat');
    assert.equal(models.kindOf('mistral-ocr-latest'), 'ocr');
    assert.equal(rig.server.requests.length, 1);
  });
});

describe('inference/models inferModelKind', () => {
  const cases: Array<[string, ModelKind]> = [
    ['gpt-oss:120b', 'chat'],
    ['llama3.3:70b', 'chat'],
    ['qwen2.5-coder:32b', 'chat'],
    ['deepseek-r1:70b', 'chat'],
    ['qwen3-vl:8b', 'vision'],
    ['qwen2.5vl:7b', 'vision'],
    ['llama3.2-vision:11b', 'vision'],
    ['llava:13b', 'vision'],
    ['pixtral-12b', 'vision'],
    ['mistral-small3.2:24b', 'vision'],
    ['bge-m3:567m', 'embedding'],
    ['granite-embedding:278m', 'embedding'],
    ['nomic-embed-text', 'embedding'],
    ['multilingual-e5-large', 'embedding'],
    ['qwen3-reranker:4b', 'rerank'],
    ['bge-reranker-v2-m3', 'rerank'],
    ['whisper-large-v3', 'speech'],
    ['faster-whisper:turbo', 'speech'],
    ['mistral-ocr', 'ocr'],
    ['deepseek-ocr:3b', 'ocr'],
  ];
  for (const [id, kind] of cases) it(`${id} -> ${kind}`, () => assert.equal(inferModelKind(id), kind));

  it('lets an override win, and ignores invalid override values', () => {
    assert.equal(inferModelKind('bge-m3:567m', { 'bge-m3:567m': 'rerank' }), 'rerank');
    assert.equal(inferModelKind('gpt-oss:120b', { 'gpt-oss:120b': 'bogus' as ModelKind }), 'chat');
  });
});
