import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageStore } from '../../../src/core/usage/store';
import { PROFILES } from '../console/helpers';
import { data, sandboxEnv, text, useSessions } from './helpers';

const WRITE_TOOLS = ['create_resource', 'modify_resource', 'power_on_resource', 'power_off_resource', 'delete_resource'];

interface Listed { kind: string; items: Array<{ id: string; name: string; state?: string; summary?: string }>; total?: number; nextOffset?: number }

describe('mcp server: tools, reads and refusals over stdio (SDK client)', function () {
  this.timeout(60_000);
  const { fx, open } = useSessions();

  it('is read-only by default: reads and usage listed with read-only annotations, no write tool', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const s = await open({ env: sandboxEnv(sb) });
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['get_activity', 'get_resource', 'get_usage', 'list_activities', 'list_resource_kinds', 'list_resources']);
    for (const tool of tools) {
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.equal(tool.annotations?.destructiveHint, false, tool.name);
      assert.ok(tool.title && tool.description && tool.description.length > 40, tool.name);
    }
    const list = tools.find((t) => t.name === 'list_resources');
    assert.deepEqual((list?.inputSchema.properties?.kind as { enum?: string[] }).enum, ['virtualMachines', 'users', 'roles', 'virtualNetworks']);
    // A write tool called anyway is refused before any request.
    sb.control.clearRequests();
    const refused = await s.call('delete_resource', { kind: 'virtualMachines', id: 'x' });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /delete_resource not found/);
    assert.equal(sb.control.requests({ pathPrefix: '/api' }).length, 0);
  });

  it('with --allow-writes lists the write tools, delete and power off marked destructive', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
    const { tools } = await s.client.listTools();
    for (const name of WRITE_TOOLS) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, name);
      assert.equal(tool.annotations?.readOnlyHint, false, name);
      assert.equal(tool.annotations?.destructiveHint, name === 'delete_resource' || name === 'power_off_resource', name);
      assert.equal(typeof tool.annotations?.idempotentHint, 'boolean', name);
    }
    assert.equal(tools.find((t) => t.name === 'create_resource')?.annotations?.idempotentHint, false);
  });

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      it('lists kinds, pages through every virtual machine once, filters by name', async () => {
        const sb = await fx.sandbox({ profile, consolePaths: profile === 'production' ? 'production' : 'all' });
        const s = await open({ env: sandboxEnv(sb) });
        const kinds = data<{ kinds: Array<{ id: string; actions: string[] }>; writesAllowed: boolean }>(await s.call('list_resource_kinds'));
        assert.equal(kinds.writesAllowed, false);
        assert.deepEqual(kinds.kinds.find((k) => k.id === 'virtualMachines')?.actions, ['create', 'modify', 'powerOn', 'powerOff', 'delete']);
        const seen = new Set<string>();
        let offset: number | undefined = 0;
        let pages = 0;
        while (offset !== undefined && pages < 10) {
          const page: Listed = data<Listed>(await s.call('list_resources', { kind: 'virtualMachines', limit: 10, offset }));
          assert.ok(page.items.length <= 10);
          for (const item of page.items) {
            assert.ok(!seen.has(item.id), `${item.id} twice`);
            seen.add(item.id);
            // Compact: id, name, state, summary; never the whole record.
            assert.deepEqual(Object.keys(item).filter((k) => !['id', 'name', 'state', 'summary'].includes(k)), []);
          }
          offset = page.nextOffset;
          pages++;
        }
        assert.equal(seen.size, 25);
        assert.equal(pages, 3);
        const web = data<Listed>(await s.call('list_resources', { kind: 'virtualMachines', name: 'WEB' }));
        assert.ok(web.items.length > 0);
        for (const item of web.items) assert.match(item.name, /web/i);
      });

      it('gets one resource compact, the whole record only with full', async () => {
        const sb = await fx.sandbox({ profile, consolePaths: profile === 'production' ? 'production' : 'all' });
        const s = await open({ env: sandboxEnv(sb) });
        const [first] = data<Listed>(await s.call('list_resources', { kind: 'virtualMachines', limit: 1 })).items;
        assert.ok(first);
        const brief = data(await s.call('get_resource', { kind: 'virtualMachines', id: first.id }));
        assert.equal(brief.id, first.id);
        assert.equal(brief.record, undefined);
        assert.ok(Array.isArray(brief.actionsNow));
        const full = data<{ record: Record<string, unknown> }>(await s.call('get_resource', { kind: 'virtualMachines', id: first.id, full: true }));
        assert.equal(full.record.id, first.id);
        // A kind without a read-one endpoint is found in its list.
        const [role] = data<Listed>(await s.call('list_resources', { kind: 'roles', limit: 1 })).items;
        assert.ok(role);
        assert.equal(data(await s.call('get_resource', { kind: 'roles', id: role.id })).id, role.id);
        const missing = await s.call('get_resource', { kind: 'virtualMachines', id: 'no-such-vm' });
        assert.equal(missing.isError, true);
        assert.match(text(missing), /no virtual machine with id "no-such-vm".*list_resources/);
      });

      it('refuses bad arguments before any request: wrong types, unknown kind, unsafe ids', async () => {
        const sb = await fx.sandbox({ profile });
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
        sb.control.clearRequests();
        const bad: Array<[string, Record<string, unknown>]> = [
          ['list_resources', { kind: 'virtualMachines', limit: 'ten' }],
          ['list_resources', { kind: 'virtualMachines', limit: 0 }],
          ['list_resources', { kind: 'buckets' }],
          ['list_resources', {}],
          ['get_resource', { kind: 'virtualMachines', id: '..' }],
          ['get_resource', { kind: 'virtualMachines', id: 'a/../b' }],
          ['get_resource', { kind: 'virtualMachines', id: '%2e%2e' }],
          ['get_resource', { kind: 'virtualMachines', id: 42 }],
          ['get_activity', { id: '..' }],
          ['get_activity', { id: 'x\\y' }],
          ['delete_resource', { kind: 'virtualMachines', id: '..' }],
          ['modify_resource', { kind: 'virtualMachines', id: '.', input: { cpu: 2 } }],
          ['create_resource', { kind: 'virtualMachines', input: { cpu: { nested: true } } }],
          ['create_resource', { kind: 'virtualMachines', input: { cpu: 2 } }],
          ['create_resource', { kind: 'roles', input: { name: 'r' } }],
          ['power_on_resource', { kind: 'users', id: 'u-1' }],
        ];
        for (const [name, args] of bad) {
          const result = await s.call(name, args);
          assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}: ${text(result)}`);
          assert.doesNotMatch(text(result), /\n\s+at /, 'no stack trace');
        }
        // A create's input is checked before the sign-in, or anything else, is sent.
        assert.deepEqual(sb.control.requests({ pathPrefix: '/api' }).map((r) => `${r.method} ${r.path}`), []);
      });

      it('lists and reads activities', async () => {
        const sb = await fx.sandbox({ profile });
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
        const created = data<{ activityId: string }>(await s.call('create_resource', { kind: 'virtualMachines', input: { name: 'act-1' } }));
        const listed = data<{ items: Array<{ id: string; state: string }> }>(await s.call('list_activities', { limit: 5 }));
        assert.ok(listed.items.some((a) => a.id === created.activityId));
        // Production shows a new activity a moment late (its first read is a 404): the tool says to call again.
        let answer = await s.call('get_activity', { id: created.activityId });
        for (let i = 0; answer.isError && i < 5; i++) {
          assert.match(text(answer), /not found \(404\).*call get_activity again/);
          answer = await s.call('get_activity', { id: created.activityId });
        }
        const one = data<{ id: string; state: string; description: string }>(answer);
        assert.equal(one.id, created.activityId);
        assert.match(one.state, /waiting|running|completed/);
      });
    });
  }

  it('usage: the tier caps, and the metered figures of the extension usage folder', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const plain = await open({ env: { ...sandboxEnv(sb), STRATUS_USAGE_TIER: 'tier2' } });
    const caps = data<{ caps: { tier: string; outputTokensPerHour: number }; metered: unknown }>(await plain.call('get_usage'));
    assert.equal(caps.caps.tier, 'Tier 2');
    assert.equal(caps.caps.outputTokensPerHour, 300_000);
    assert.equal(caps.metered, null);
    const dir = mkdtempSync(join(tmpdir(), 'stratus-usage-'));
    try {
      const store = new UsageStore({ dir, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
      await store.append([{ kind: 'chat', at: Date.now(), model: 'm', promptTokens: 10, completionTokens: 1234, reasoningTokens: 0, estimated: false }]);
      const metered = await open({ env: { ...sandboxEnv(sb), STRATUS_USAGE_DIR: dir } });
      const usage = data<{ metered: { hour: { outputTokens: number; cap: number }; day: { outputTokens: number } } }>(await metered.call('get_usage'));
      assert.equal(usage.metered.hour.outputTokens, 1234);
      assert.equal(usage.metered.hour.cap, 150_000);
      assert.equal(usage.metered.day.outputTokens, 1234);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
