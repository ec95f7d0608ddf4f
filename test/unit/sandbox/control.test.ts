import assert from 'node:assert/strict';
import { MAX_RECORDS } from '../../sandbox/core/requestLog';
import type { ControlSnapshot, RecordedRequest } from '../../sandbox/index';
import { audioForm, call, chat, consoleCall, consoleToken, infer, makeWav, useSandbox, user } from './helpers';

describe('sandbox control surface over HTTP (/__sandbox)', () => {
  const sb = useSandbox();
  const post = (route: string, body?: unknown): ReturnType<typeof call> => call(`${sb().controlUrl}${route}`, { method: 'POST', ...(body === undefined ? {} : { body }) });
  const state = async (): Promise<ControlSnapshot> => (await call(`${sb().controlUrl}/state`)).json as ControlSnapshot;
  beforeEach(async () => {
    assert.equal((await post('/reset')).status, 200);
  });

  it('GET /__sandbox/help (and GET /) describe routes, script rules and control endpoints', async () => {
    const help = await call(`${sb().controlUrl}/help`);
    assert.equal(help.status, 200);
    for (const needle of ['/v1/chat/completions', '/api/iam/v2/auth/personal_access_token', 'markdown demo', '/__sandbox/stream-fault']) assert.ok(help.text.includes(needle), needle);
    assert.equal((await call(`${sb().controlUrl}`)).status, 200);
    const root = await call(`${sb().consoleUrl}/`);
    assert.ok(root.text.includes('SCRIPTED MODEL'));
    assert.equal((await call(`${sb().consoleUrl}/elsewhere`)).status, 404);
  });

  it('each POST route answers {ok, state} and changes the snapshot like its in-process twin', async () => {
    const expectations: Array<[string, unknown, (s: ControlSnapshot) => boolean]> = [
      ['/latency', { ms: 5, chunkDelayMs: 1, pathPrefix: '/v1' }, (s) => s.latency?.ms === 5 && s.latency.chunkDelayMs === 1],
      ['/stream-fault', { kind: 'stall', afterChunks: 3, count: 2 }, (s) => s.streamFaults[0]?.kind === 'stall' && s.streamFaults[0].count === 2],
      ['/burst', { status: 503, count: 4, retryAfterSeconds: 1, pathPrefix: '/api' }, (s) => s.bursts[0]?.status === 503 && s.bursts[0].count === 4],
      ['/activities/fail', { next: 2, reason: 'boom' }, (s) => s.activities.failNext === 2 && s.activities.reason === 'boom'],
      ['/activities/fail', { all: true }, (s) => s.activities.failAll],
      ['/activities/slow', { factor: 4 }, (s) => s.activities.slowFactor === 4 && s.activities.stepMs === 4000],
      ['/activities/first-read-404', { enabled: true }, (s) => s.activities.firstRead404],
      ['/seed', { vms: 1234, users: 3, networks: 2 }, (s) => s.counts.vms === 1234 && s.counts.users === 3 && s.counts.networks === 2],
      ['/deprecate', { pathPrefix: '/api/iam/v1', sunset: '2027-01-01' }, (s) => s.deprecations[0]?.pathPrefix === '/api/iam/v1'],
      ['/tier', { outputTokensPerHour: 10, outputTokensPerDay: 20 }, (s) => s.tier.outputTokensPerHour === 10],
      ['/consume', { outputTokens: 7 }, (s) => s.outputTokens.hour === 7],
      ['/clock', { advanceMs: 60_000 }, (s) => s.clockOffsetMs === 60_000],
      ['/console-rate-limits', { perModule: 3, auth: 1 }, (s) => s.consoleRateLimits !== false && s.consoleRateLimits.perModule === 3],
      ['/console-rate-limits', { enabled: false }, (s) => s.consoleRateLimits === false],
    ];
    for (const [route, body, check] of expectations) {
      const r = await post(route, body);
      assert.equal(r.status, 200, `${route}: ${r.text}`);
      const reply = r.json as { ok: boolean; state: ControlSnapshot };
      assert.equal(reply.ok, true);
      assert.ok(check(reply.state), route);
    }
    await post('/reset');
    const s = await state();
    assert.deepEqual([s.latency, s.bursts.length, s.activities.failAll, s.counts.vms, s.clockOffsetMs], [null, 0, false, 25, 0]);
  });

  it('/expire-tokens rejects every issued JWT', async () => {
    const token = await consoleToken(sb());
    assert.equal((await post('/expire-tokens')).status, 200);
    assert.equal((await consoleCall(sb(), token, '/api/iam/v2/roles')).status, 401);
  });

  it('invalid control bodies: 400 with a message; unknown route 404; wrong method 405', async () => {
    const bad: Array<[string, unknown]> = [
      ['/stream-fault', { kind: 'explode', afterChunks: 1 }],
      ['/stream-fault', { kind: 'stall' }],
      ['/burst', { status: 404, count: 1 }],
      ['/burst', { status: 500, count: 0 }],
      ['/latency', { ms: -1 }],
      ['/latency', { ms: 'slow' }],
      ['/activities/slow', {}],
      ['/activities/first-read-404', { enabled: 'yes' }],
      ['/seed', { vms: 1e9 }],
      ['/deprecate', {}],
      ['/deprecate', { pathPrefix: 'no-slash' }],
      ['/tier', { outputTokensPerHour: 0, outputTokensPerDay: 1 }],
      ['/clock', { advanceMs: -5 }],
      ['/reset', 'not json'],
    ];
    for (const [route, body] of bad) {
      const r = await post(route, body);
      assert.equal(r.status, 400, `${route} ${JSON.stringify(body)}`);
      assert.equal(typeof (r.json as { error: { message: string } }).error.message, 'string');
    }
    assert.equal((await post('/nope')).status, 404);
    assert.equal((await call(`${sb().controlUrl}/burst`)).status, 405);
  });

  describe('request log', () => {
    const requests = async (query = ''): Promise<RecordedRequest[]> => ((await call(`${sb().controlUrl}/requests${query}`)).json as { requests: RecordedRequest[] }).requests;

    it('records method, path, query, status, duration, redacted headers and a body summary', async () => {
      await chat(sb(), { messages: [user('hello log')], temperature: 0.5 });
      const [record] = await requests();
      assert.ok(record);
      assert.equal(record.method, 'POST');
      assert.equal(record.path, '/v1/chat/completions');
      assert.equal(record.status, 200);
      assert.ok((record.durationMs ?? -1) >= 0);
      assert.equal(record.headers.authorization, 'Bearer <redacted>');
      assert.deepEqual(record.body?.json, { model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'hello log' }], temperature: 0.5 });
      assert.equal(record.clientClosedEarly, false);
      assert.equal(record.streamed, false);
    });

    it('never keeps a secret: API key, PAT secret, JWT', async () => {
      const token = await consoleToken(sb());
      await consoleCall(sb(), token, '/api/iam/v2/roles?limit=2');
      await chat(sb(), { messages: [user(`my key is ${sb().credentials.apiKey} and token ${token}`)] });
      await call(`${sb().consoleUrl}/api/iam/v2/auth/personal_access_token`, { body: { id: sb().credentials.patId, secret: sb().credentials.patSecret } });
      const dump = JSON.stringify(await requests());
      for (const secret of [sb().credentials.apiKey, sb().credentials.patSecret, token]) assert.ok(!dump.includes(secret));
      const auth = (await requests('?pathPrefix=/api/iam/v2/auth')).pop();
      assert.deepEqual(auth?.body?.json, { id: sb().credentials.patId, secret: '<redacted>' });
      const roles = (await requests('?pathPrefix=/api/iam/v2/roles')).pop();
      assert.equal(roles?.query, '?limit=2');
    });

    it('summarises multipart uploads without the file bytes, and shortens long strings', async () => {
      await call(`${sb().inferenceUrl}/audio/transcriptions`, { method: 'POST', body: audioForm(makeWav(1), 'x.wav', { language: 'de' }), headers: { authorization: `Bearer ${sb().credentials.apiKey}` } });
      const record = (await requests('?pathPrefix=/v1/audio')).pop();
      const parts = record?.body?.parts ?? [];
      assert.deepEqual(
        parts.map((p) => [p.name, p.filename, p.bytes]),
        [
          ['file', 'x.wav', 16044],
          ['language', undefined, 2],
        ],
      );
      assert.equal(parts[1]?.value, 'de');
      await infer(sb(), '/embeddings', { model: 'bge-m3:567m', input: 'z'.repeat(1000) });
      const emb = (await requests('?pathPrefix=/v1/embeddings')).pop();
      assert.match(String((emb?.body?.json as { input: string }).input), /…\[\+800 chars\]$/);
    });

    it('excludes the control surface, filters by path prefix, clears with DELETE, and is bounded', async () => {
      await call(`${sb().controlUrl}/state`);
      assert.equal((await requests()).length, 0);
      for (let i = 0; i < MAX_RECORDS + 20; i++) await call(`${sb().consoleUrl}/api/nothing`);
      const all = await requests();
      assert.equal(all.length, MAX_RECORDS);
      const last = all[all.length - 1]?.seq ?? 0;
      assert.equal(all[0]?.seq, last - MAX_RECORDS + 1, 'the oldest are dropped first');
      assert.equal(sb().control.requests({ pathPrefix: '/v1' }).length, 0);
      assert.equal((await call(`${sb().controlUrl}/requests`, { method: 'DELETE' })).status, 200);
      assert.equal((await requests()).length, 0);
    });
  });
});
