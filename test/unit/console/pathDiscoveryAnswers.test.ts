import assert from 'node:assert/strict';
import { InMemoryPathMemory } from '../../../src/core/console/catalog/pathMemory';
import { isStratusError } from '../../../src/core/errors';
import type { UnroutedConsoleAnswer } from '../../sandbox/console/productionPaths';
import type { RecordedRequest, Sandbox } from '../../sandbox/index';
import { AUTH_PATH, Fixtures } from './helpers';

// Issue 40 item 13: a console behind a gateway does not always answer 404 for a path it does not
// serve. A 405, a 410, a redirect (a sign-in page) or a 200 HTML page (a single-page app's
// fallback) is "not this path" for the discovery of a read, as a 404 is; writes still go only to a
// path a read proved.
const CONTRACT_VMS = '/api/compute/v1/virtual-machines';
const PRODUCTION_VMS = '/api/compute/v1/vcenters/virtual_machines';

const ok = (status: number | null): boolean => status !== null && status >= 200 && status < 300;
const sent = (sb: Sandbox): string[] =>
  sb.control.requests({ pathPrefix: '/api/compute' }).filter((r) => r.path !== AUTH_PATH).map((r: RecordedRequest) => `${r.method} ${r.path} ${r.status === 200 && r.path === CONTRACT_VMS ? '200-html' : ok(r.status) ? 'ok' : String(r.status)}`);

const ANSWERS: ReadonlyArray<{ answer: UnroutedConsoleAnswer; shown: string }> = [
  { answer: 'methodNotAllowed', shown: '405' },
  { answer: 'gone', shown: '410' },
  { answer: 'redirect', shown: '302' },
  { answer: 'spa', shown: '200-html' },
];

describe('console paths: a gateway\'s answer for a path it does not serve (issue 40, 13)', () => {
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('the sandbox answers an unrouted console path as told, and reset restores the option', async () => {
    const sb = await fx.sandbox({ profile: 'production', consolePaths: 'production', unroutedConsolePaths: 'spa' });
    assert.equal(sb.control.snapshot().unroutedConsolePaths, 'spa');
    sb.control.setUnroutedConsolePaths('gone');
    assert.equal(sb.control.snapshot().unroutedConsolePaths, 'gone');
    sb.control.reset();
    assert.equal(sb.control.snapshot().unroutedConsolePaths, 'spa');
    assert.throws(() => sb.control.setUnroutedConsolePaths('teapot' as UnroutedConsoleAnswer));
  });

  for (const profile of ['contract', 'production'] as const) {
    for (const { answer, shown } of ANSWERS) {
      it(`${profile} profile: a ${shown} at the contract path finds the production path; the write then goes there only`, async () => {
        const sb = await fx.sandbox({ profile, consolePaths: 'production', unroutedConsolePaths: answer });
        const memory = new InMemoryPathMemory();
        const client = fx.client(sb, { pathMemory: memory });
        const page = await client.list('virtualMachines');
        assert.ok(page.items.length > 0);
        assert.deepEqual(sent(sb), [`GET ${CONTRACT_VMS} ${shown}`, `GET ${PRODUCTION_VMS} ok`]);
        assert.equal(memory.get(sb.consoleUrl, 'virtualMachines'), 'production');
        const vm = page.items.find((v) => v.raw.powerState === 'running');
        assert.ok(vm);
        sb.control.clearRequests();
        await client.perform('virtualMachines', 'powerOff', { target: vm });
        assert.deepEqual(sent(sb).filter((r) => !r.startsWith('GET')), [`PATCH ${PRODUCTION_VMS}/power ok`]);
      });
    }
  }

  it('a write before any read reads first: the SPA page at the contract path proves nothing, the write goes where the list answered', async () => {
    const sb = await fx.sandbox({ profile: 'production', consolePaths: 'production', unroutedConsolePaths: 'spa' });
    const vm = (await fx.client(sb).list('virtualMachines')).items.find((v) => v.raw.powerState === 'running');
    assert.ok(vm);
    sb.control.clearRequests();
    await fx.client(sb, { pathMemory: new InMemoryPathMemory() }).perform('virtualMachines', 'powerOff', { target: vm });
    assert.deepEqual(sent(sb), [`GET ${CONTRACT_VMS} 200-html`, `GET ${PRODUCTION_VMS} ok`, `PATCH ${PRODUCTION_VMS}/power ok`]);
  });

  it('a kind with one path still reports what its path answered (no probe, no hidden failure)', async () => {
    const sb = await fx.sandbox({ profile: 'contract', consolePaths: 'all', unroutedConsolePaths: 'spa' });
    const client = fx.client(sb, { resourcePaths: { virtualMachines: '/api/compute/v1/nowhere' } });
    const error = await client.list('virtualMachines').then(() => undefined, (e: unknown) => e);
    assert.ok(isStratusError(error) && error.kind === 'malformed_response', String(error));
  });
});
