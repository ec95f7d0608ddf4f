import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeClaims, MAX_LIFETIME_MS, parseTokenBody, tokenTimes } from '../../../src/core/console/auth/accessToken';
import { activityIdFromLocation } from '../../../src/core/console/activities/writes';
import { normaliseState, toActivity } from '../../../src/core/console/activities/readActivities';
import { pathIdProblem } from '../../../src/core/console/catalog/routes';
import { createConsoleClient, type ConsoleClient } from '../../../src/core/console/index';
import { pageRequest, parseCollection, toListPage } from '../../../src/core/console/lists/collections';
import type { FetchLike } from '../../../src/core/http/types';
import { bodyAround, check, checkAsync, typedOrValue, typedOrValueAsync, weirdJson, weirdNumber, weirdString } from './harness';

function b64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value) ?? '').toString('base64url');
}

const NOW = Date.UTC(2026, 10, 25, 3, 0, 0);
const JWT = `${b64url({ alg: 'none' })}.${b64url({ exp: NOW / 1000 + 600, iat: NOW / 1000, userId: 'u1', companyId: 'c1', scope: { id: 't1' } })}.sig`;

/** A console whose PAT exchange answers `token` and every other request `status` + `body` (+ headers). */
function consoleWith(answer: { status: number; body: string; headers?: Record<string, string> }, token = JWT): ConsoleClient {
  const engine: FetchLike = (url) => {
    if (url.includes('/auth/personal_access_token')) return Promise.resolve(new Response(token, { status: 200, headers: { 'content-type': 'text/plain' } }));
    const noBody = answer.status === 204 || answer.status === 205 || answer.status === 304;
    return Promise.resolve(new Response(noBody ? null : answer.body, { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } }));
  };
  return createConsoleClient({
    baseUrl: 'https://console.example.test',
    pat: { id: () => Promise.resolve('pat-id-FAKE'), secret: () => Promise.resolve('pat-secret-FAKE-0123456789') },
    fetch: engine,
    retry: { attempts: 1 },
    now: () => NOW,
  });
}

const VM = { id: 'vm-1', name: 'web', powerState: 'running', cpu: 2, memory: 4096, datacenter: { id: 'dc', name: 'Paris' } };

describe('properties: console list shapes', function () {
  this.timeout(60_000);

  it('any list body (bare array, envelope, 206, mutated) gives a page of items with ids and a sane next offset, or a typed error', async () => {
    const shapes = fc.oneof(bodyAround([VM, { ...VM, id: 'vm-2' }]), bodyAround({ items: [VM], total: 2 }), bodyAround({ vms: [VM], total: '2' }), bodyAround({ data: [VM] }));
    await checkAsync(
      fc.asyncProperty(shapes, fc.constantFrom(200, 206), fc.option(fc.constantFrom('items 0-0/2', 'items 0-9/x', '*/1e999', 'bytes */-1'), { nil: undefined }), fc.nat(3), fc.option(fc.constantFrom('web', 'x', ' '), { nil: undefined }), async (body, status, range, offset, name) => {
        const client = consoleWith({ status, body, ...(range ? { headers: { 'content-range': range } } : {}) });
        const page = await typedOrValueAsync(client.list('virtualMachines', { limit: 2, offset, ...(name !== undefined ? { name } : {}) }));
        await client.close();
        if (!page) return;
        for (const item of page.items) assert.ok(typeof item.id === 'string' && item.id.trim() !== '' && typeof item.name === 'string');
        if (page.nextOffset !== undefined) assert.ok(Number.isInteger(page.nextOffset) && page.nextOffset > offset, `next offset ${page.nextOffset} after ${offset}: paging always advances`);
        if (page.total !== undefined) assert.ok(Number.isFinite(page.total) && page.total >= 0, `total ${page.total}`);
      }),
      200,
    );
  });

  it('parseCollection + toListPage never loop: the next offset always advances, for any raw page and request', () => {
    check(
      fc.property(weirdJson, fc.constantFrom(200, 206), fc.integer({ min: 1, max: 5 }), fc.nat(6), fc.option(fc.constantFrom('a', 'B', ''), { nil: undefined }), (body, status, limit, offset, name) => {
        const raw = typedOrValue(() => parseCollection(body, status, {}, 'GET /x'));
        if (!raw) return;
        const req = pageRequest({ limit, offset, ...(name !== undefined ? { name } : {}) });
        const page = toListPage(raw, raw.items.map((_, i) => ({ name: String(i) })), req, (i) => i.name);
        if (page.nextOffset !== undefined) assert.ok(page.nextOffset > offset);
        if (page.total !== undefined) assert.ok(Number.isFinite(page.total) && page.total >= 0, `total ${page.total}`);
      }),
      300,
    );
  });

  it('list limits and offsets from anywhere (negative, fractional, huge, NaN) are refused with a ValidationError', () => {
    check(
      fc.property(fc.oneof(weirdNumber, fc.constant(Number.NaN), fc.constant(Infinity)), fc.oneof(weirdNumber, fc.constant(Number.NaN)), (limit, offset) => {
        typedOrValue(() => pageRequest({ limit, offset }));
      }),
      200,
    );
  });
});

describe('properties: console activities and Location', function () {
  this.timeout(60_000);

  it('any activity body normalises to one of the four states, or a typed error through the client', async () => {
    const valid = { id: 'act-1', description: 'Power on', type: 'vm', state: { running: { status: 'x', progression: 42, startDate: '2026-01-01T00:00:00Z' } }, concernedItems: [{ type: 'vm', id: 'vm-1' }] };
    await checkAsync(
      fc.asyncProperty(bodyAround(valid), async (body) => {
        const client = consoleWith({ status: 200, body });
        const activity = await typedOrValueAsync(client.activities.get('act-1'));
        await client.close();
        if (!activity) return;
        assert.ok(['waiting', 'running', 'completed', 'failed'].includes(activity.state.kind));
        if (activity.state.kind === 'running' && activity.state.progression !== undefined) assert.ok(Number.isFinite(activity.state.progression));
      }),
      200,
    );
  });

  it('the activity list in any shape gives activities with ids and known states, or a typed error', async () => {
    const act = { id: 'act-1', description: 'Power on', state: { completed: { result: 'r' } } };
    await checkAsync(
      fc.asyncProperty(fc.oneof(bodyAround([act, { ...act, id: 'act-2', state: { failed: { reason: 'x' } } }]), bodyAround({ items: [act], total: 1 })), async (body) => {
        const client = consoleWith({ status: 200, body });
        const page = await typedOrValueAsync(client.activities.list({ limit: 5 }));
        await client.close();
        if (!page) return;
        for (const a of page.items) assert.ok(a.id.trim() !== '' && ['waiting', 'running', 'completed', 'failed'].includes(a.state.kind));
      }),
      150,
    );
  });

  it('a write answered with any status and Location gives a safe activity id or a typed error', async () => {
    const location = fc.oneof(weirdString, fc.constantFrom('act-9', '/api/activity/v1/activities/act-9', 'https://c.test/api/activity/v1/activities/%2e%2e', 'activities/..', ''), fc.constant(undefined));
    await checkAsync(
      fc.asyncProperty(fc.constantFrom(200, 201, 202, 204), location, async (status, loc) => {
        const client = consoleWith({ status, body: '', ...(loc !== undefined ? { headers: { location: loc } } : {}) });
        const target = { id: 'vm-1', name: 'web', raw: VM };
        const result = await typedOrValueAsync(client.perform('virtualMachines', 'powerOn', { target }));
        await client.close();
        if (result) assert.equal(pathIdProblem(result.activityId), undefined, result.activityId);
      }),
      150,
    );
  });

  it('normaliseState and toActivity accept any JSON without throwing', () => {
    check(
      fc.property(weirdJson, weirdJson, (state, holder) => {
        const s = normaliseState(state, typeof holder === 'object' && holder !== null && !Array.isArray(holder) ? (holder as Record<string, unknown>) : {});
        assert.ok(['waiting', 'running', 'completed', 'failed'].includes(s.kind));
        const a = toActivity(holder);
        if (a) assert.ok(a.id.trim() !== '');
      }),
      400,
    );
  });

  it('a Location header yields either no id or an id that is safe in a URL path', () => {
    const location = fc.oneof(
      weirdString,
      fc.string({ maxLength: 30 }),
      fc.tuple(fc.constantFrom('', 'https://h.test', 'http://h:1', '//h', '/api/activity/v1/activities/', 'activities/'), fc.constantFrom('', 'act-1', '..', '.', '%2e%2e', '%2F', 'a%00', '%', '%zz', 'a?b=1', 'a#f', '/', '  x  '), fc.constantFrom('', '/', '?q', '#f')).map((parts) => parts.join('')),
    );
    check(
      fc.property(location, (value) => {
        const id = activityIdFromLocation(value);
        if (id !== undefined) assert.equal(pathIdProblem(id), undefined, `"${id}" from "${value}" is safe`);
      }),
      500,
    );
  });
});

describe('properties: JWT and the PAT exchange answer', () => {
  const claim = fc.oneof(weirdNumber, weirdString, fc.constant(undefined), fc.constant(null), fc.constantFrom(1e10, 1e13, 1e16, -5, NOW / 1000));
  const payload = fc.oneof(fc.record({ exp: claim, iat: claim, userId: fc.oneof(weirdString, weirdNumber), scope: fc.oneof(weirdJson, fc.record({ id: weirdJson })) }, { requiredKeys: [] }), weirdJson);

  it('decodeClaims + tokenTimes: any token gives claims or nothing, and refresh times inside the token\'s bounded life', () => {
    const token = fc.oneof(
      payload.map((p) => `${b64url({ alg: 'none' })}.${b64url(p)}.s`),
      fc.tuple(weirdString, weirdString, weirdString).map((parts) => parts.join('.')),
      fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '_', '.', '='), maxLength: 40 }),
    );
    check(
      fc.property(token, fc.integer({ min: -1e6, max: 1e6 }), (t, margin) => {
        const claims = decodeClaims(t);
        if (claims) {
          for (const v of [claims.exp, claims.iat]) if (v !== undefined) assert.ok(Number.isFinite(v) && v >= 0);
        }
        const times = tokenTimes(claims, NOW, margin);
        assert.ok(Number.isFinite(times.expiresAt) && Number.isFinite(times.refreshAt));
        assert.ok(times.expiresAt > NOW && times.expiresAt - NOW <= MAX_LIFETIME_MS);
        assert.ok(times.refreshAt > NOW && times.refreshAt <= times.expiresAt, 'never refreshes in the past: no exchange storm');
      }),
      400,
    );
  });

  it('parseTokenBody reads any answer without throwing, and a token it returns has no spaces', () => {
    const body = fc.oneof(
      weirdString,
      payload.map((p) => `${b64url({})}.${b64url(p)}.x`),
      weirdJson.map((v) => JSON.stringify(v) ?? ''),
      fc.record({ token: weirdJson, data: fc.record({ accessToken: weirdJson }, { requiredKeys: [] }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
    );
    check(
      fc.property(body, (text) => {
        const token = parseTokenBody(text);
        if (token !== undefined) assert.ok(token !== '' && token === token.trim());
      }),
      400,
    );
  });

  it('any exchange answer signs in with a bounded token life or fails with a typed error', async () => {
    const answer = fc.oneof(payload.map((p) => `${b64url({ alg: 'none' })}.${b64url(p)}.s`), weirdString, weirdJson.map((v) => JSON.stringify(v) ?? ''));
    await checkAsync(
      fc.asyncProperty(answer, async (token) => {
        const client = consoleWith({ status: 200, body: '[]' }, token);
        const session = await typedOrValueAsync(client.auth.signIn());
        await client.close();
        if (session) assert.ok(Number.isFinite(session.expiresAt.getTime()) && session.expiresAt.getTime() > NOW);
      }),
      150,
    );
  });
});
