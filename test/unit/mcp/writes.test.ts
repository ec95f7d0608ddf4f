import assert from 'node:assert/strict';
import { PROFILES } from '../console/helpers';
import { data, sandboxEnv, type Session, text, useSessions } from './helpers';

interface Listed { items: Array<{ id: string; name: string; state?: string }> }
interface Written { activityId: string; state: string; resource?: { id: string; name: string; state?: string; fields: Record<string, string> }; deleted?: string }

describe('mcp server: writes over stdio (SDK client)', function () {
  this.timeout(60_000);
  const { fx, open } = useSessions();

  const running = async (s: Session): Promise<{ id: string; name: string }> => {
    const vm = data<Listed>(await s.call('list_resources', { kind: 'virtualMachines', limit: 50 })).items.find((v) => v.state === 'running');
    assert.ok(vm);
    return vm;
  };

  for (const profile of PROFILES) {
    describe(`${profile} profile`, () => {
      const sandbox = () => fx.sandbox({ profile, consolePaths: profile === 'production' ? 'production' : 'all' });

      it('create without wait returns the activity id at once; with wait, progress notifications then the created resource', async () => {
        const sb = await sandbox();
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
        const quick = data<Written>(await s.call('create_resource', { kind: 'virtualMachines', input: { name: 'quick-1' } }));
        assert.equal(quick.state, 'accepted');
        assert.match(quick.activityId, /\S/);
        const progress: Array<{ progress: number; message?: string }> = [];
        const done = data<Written>(await s.call('create_resource', { kind: 'virtualMachines', input: { name: 'followed-1', cpu: 4, memoryGiB: 8 }, wait: true }, (p) => progress.push(p)));
        assert.equal(done.state, 'completed');
        assert.equal(done.resource?.name, 'followed-1');
        assert.equal(done.resource?.fields.vCPU, '4');
        assert.ok(progress.length >= 2, JSON.stringify(progress));
        for (let i = 1; i < progress.length; i++) assert.ok((progress[i]?.progress ?? 0) > (progress[i - 1]?.progress ?? 0));
        assert.match(progress[0]?.message ?? '', new RegExp(`activity ${done.activityId} waiting`));
        assert.match(progress[progress.length - 1]?.message ?? '', /completed/);
        // Each create was sent once.
        assert.equal(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method === 'POST').length, 2);
      });

      it('modifies only what changes and powers on, followed to the end', async () => {
        const sb = await sandbox();
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
        const vm = await running(s);
        const modified = data<Written>(await s.call('modify_resource', { kind: 'virtualMachines', id: vm.id, input: { cpu: 12 }, wait: true }));
        assert.equal(modified.resource?.fields.vCPU, '12');
        const off = await s.call('power_on_resource', { kind: 'virtualMachines', id: vm.id });
        assert.equal(off.isError, true, 'a running VM cannot be powered on');
        assert.match(text(off), /not possible on .* now.*Actions possible now: .*powerOff/);
      });

      it('elicitation accepted: power off asks the user, then runs', async () => {
        const sb = await sandbox();
        const asked: string[] = [];
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'], elicit: (message) => (asked.push(message), { action: 'accept', content: { confirm: true } }) });
        const vm = await running(s);
        const done = data<Written>(await s.call('power_off_resource', { kind: 'virtualMachines', id: vm.id, wait: true }));
        assert.equal(done.resource?.state, 'stopped');
        assert.equal(asked.length, 1);
        assert.ok(asked[0]?.includes(vm.name) && asked[0].includes(vm.id), asked[0]);
      });

      it('elicitation declined or dismissed: nothing is sent', async () => {
        const sb = await sandbox();
        for (const action of ['decline', 'cancel'] as const) {
          const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'], elicit: () => ({ action }) });
          const vm = await running(s);
          const result = await s.call('delete_resource', { kind: 'virtualMachines', id: vm.id, wait: true });
          assert.equal(result.isError, true);
          assert.match(text(result), /The user (declined|dismissed) the confirmation; nothing was done/);
        }
        // An accept without the box ticked is no yes either.
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'], elicit: () => ({ action: 'accept', content: { confirm: false } }) });
        const vm = await running(s);
        assert.equal((await s.call('power_off_resource', { kind: 'virtualMachines', id: vm.id })).isError, true);
        assert.deepEqual(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method !== 'GET'), []);
      });

      it('elicitation unsupported: refused with the way out, unless the user flag allows it', async () => {
        const sb = await sandbox();
        const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
        const vm = await running(s);
        const refused = await s.call('delete_resource', { kind: 'virtualMachines', id: vm.id });
        assert.equal(refused.isError, true);
        assert.match(text(refused), /does not support MCP elicitation.*--allow-destructive-without-confirmation/);
        assert.deepEqual(sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.method !== 'GET'), []);
        // A create is no destructive call: it needs no confirmation.
        assert.equal((await s.call('create_resource', { kind: 'virtualMachines', input: { name: 'c' } })).isError, undefined);
        const allowed = await open({ env: sandboxEnv(sb), args: ['--allow-writes', '--allow-destructive-without-confirmation'] });
        const gone = data<Written>(await allowed.call('delete_resource', { kind: 'virtualMachines', id: vm.id, wait: true }));
        assert.equal(gone.deleted, vm.id);
        const after = await allowed.call('get_resource', { kind: 'virtualMachines', id: vm.id });
        assert.equal(after.isError, true);
      });
    });
  }

  it('a failed activity is a tool error with its reason', async () => {
    const sb = await fx.sandbox({ profile: 'contract' });
    const s = await open({ env: sandboxEnv(sb), args: ['--allow-writes'] });
    sb.control.failActivities({ next: 1, reason: 'Quota exceeded in datacenter' });
    const result = await s.call('create_resource', { kind: 'virtualMachines', input: { name: 'f' }, wait: true });
    assert.equal(result.isError, true);
    assert.match(text(result), /failed on the server: activity \S+ ended in "failed" \(Quota exceeded in datacenter\.\)/);
  });
});
