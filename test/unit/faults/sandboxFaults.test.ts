// The sandbox faults the matrix added (test/sandbox/core/faults.ts, control/): body faults on
// non-SSE answers, HTML error pages and the 401/403/502/504 bursts, in process and over HTTP.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { htmlErrorPage, MALFORMED_BODY } from '../../sandbox/core/faults';
import { startSandbox, type Sandbox } from '../../sandbox/index';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** 'end' (complete), 'aborted' (socket destroyed mid-body) or 'waiting' (nothing more came). */
  ended: 'end' | 'aborted' | 'waiting';
}

/**
 * A GET read as raw bytes until it ends or its socket is destroyed, or (for a stall) until
 * `stopAt` bytes arrived: then it is reported 'waiting' if no end came with them.
 */
function raw(url: string, headers: Record<string, string>, stopAt = Infinity): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers }, (res) => {
      let body = '';
      let done = false;
      const finish = (ended: Raw['ended']): void => {
        if (done) return;
        done = true;
        res.removeAllListeners();
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ended });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        // The end, if any, is already queued behind the last chunk: give it one turn.
        if (body.length >= stopAt) setImmediate(() => setImmediate(() => finish('waiting')));
      });
      res.on('end', () => finish('end'));
      res.on('aborted', () => finish('aborted'));
      res.on('error', () => finish('aborted'));
    });
    req.on('error', reject);
  });
}

describe('sandbox faults added for the fault matrix', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());
  afterEach(() => sb.control.reset());

  const models = (stopAt?: number): Promise<Raw> => raw(`${sb.inferenceUrl}/models`, { authorization: `Bearer ${sb.credentials.apiKey}` }, stopAt);

  it('a whole answer first, for comparison', async () => {
    const whole = await models();
    assert.equal(whole.ended, 'end');
    assert.doesNotThrow(() => JSON.parse(whole.body));
  });

  it('truncate: half the JSON body, then a clean end (valid HTTP, cut JSON)', async () => {
    const whole = await models();
    sb.control.injectBodyFault({ kind: 'truncate', pathPrefix: '/v1/models' });
    const cut = await models();
    assert.equal(cut.status, 200);
    assert.equal(cut.ended, 'end');
    assert.equal(cut.body, whole.body.slice(0, Math.floor(whole.body.length / 2)));
    assert.throws(() => JSON.parse(cut.body));
    assert.equal(sb.control.requests({ pathPrefix: '/v1/models' }).at(-1)?.fault, 'body:truncate');
    assert.equal((await models()).ended, 'end', 'one use by default');
  });

  it('stall: half the body under a Content-Length for all of it, then silence', async () => {
    const whole = await models();
    sb.control.injectBodyFault({ kind: 'stall', pathPrefix: '/v1/models' });
    const stalled = await models(Math.floor(whole.body.length / 2));
    assert.equal(stalled.ended, 'waiting');
    assert.equal(stalled.body, whole.body.slice(0, Math.floor(whole.body.length / 2)));
    assert.ok(Number(stalled.headers['content-length']) > stalled.body.length);
  });

  it('drop: half the body, then the socket is destroyed', async () => {
    sb.control.injectBodyFault({ kind: 'drop', pathPrefix: '/v1/models' });
    const dropped = await models();
    assert.equal(dropped.ended, 'aborted');
    assert.ok(dropped.body.length > 0);
    assert.equal(sb.control.requests({ pathPrefix: '/v1/models' }).at(-1)?.droppedByServer, true);
  });

  it('malformed: a body that is not JSON, same status; count and path prefix respected', async () => {
    sb.control.injectBodyFault({ kind: 'malformed', count: 2, pathPrefix: '/v1/models' });
    const bad = await models();
    assert.equal(bad.body, MALFORMED_BODY);
    assert.equal(bad.ended, 'end');
    assert.equal(sb.control.snapshot().bodyFaults[0]?.count, 1);
    assert.equal((await models()).body, MALFORMED_BODY);
    assert.deepEqual(sb.control.snapshot().bodyFaults, []);
  });

  it('an HTML error page as a proxy serves it, with Retry-After when asked', async () => {
    sb.control.burst({ status: 503, count: 1, html: true, retryAfterSeconds: 3, pathPrefix: '/v1/models' });
    const page = await models();
    assert.equal(page.status, 503);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['retry-after'], '3');
    assert.equal(page.body, htmlErrorPage(503));
    assert.match(page.body, /<title>503 Service Unavailable<\/title>/);
  });

  for (const status of [401, 403, 502, 504] as const) {
    it(`bursts ${status}: the API's JSON error on inference, the console's shape on the console`, async () => {
      sb.control.burst({ status, count: 2 });
      const inference = await models();
      assert.equal(inference.status, status);
      assert.equal((JSON.parse(inference.body) as { error: { type: string } }).error.type, status >= 500 ? 'server_error' : 'invalid_request_error');
      const console = await raw(`${sb.consoleUrl}/api/compute/v1/virtual-machines`, {});
      assert.equal(console.status, status);
      assert.match((JSON.parse(console.body) as { error: { status: string } }).error.status, new RegExp(`^${status} `));
    });
  }

  it('validates its arguments and has an HTTP twin', async () => {
    assert.throws(() => sb.control.injectBodyFault({ kind: 'explode' as never }), /kind must be one of/);
    assert.throws(() => sb.control.burst({ status: 418 as never, count: 1 }), /status must be one of 401, 403, 429, 500, 502, 503, 504/);
    const post = (path: string, body: unknown): Promise<Response> => fetch(`${sb.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post('/body-fault', { kind: 'truncate', count: 3, pathPrefix: '/v1/models' })).status, 200);
    assert.equal((await post('/burst', { status: 504, count: 1, html: true })).status, 200);
    const state = sb.control.snapshot();
    assert.deepEqual(state.bodyFaults, [{ kind: 'truncate', count: 3, pathPrefix: '/v1/models' }]);
    assert.deepEqual(state.bursts, [{ status: 504, count: 1, html: true }]);
    assert.equal((await post('/body-fault', { kind: 'nope' })).status, 400);
    sb.control.reset();
    assert.deepEqual(sb.control.snapshot().bodyFaults, []);
  });
});
