import assert from 'node:assert/strict';
import FakeTimers from '@sinonjs/fake-timers';
import { afterActivation } from '../../../src/platform/afterActivation';

describe('afterActivation: start-up work runs just after activate() returns, not inside it', () => {
  let clock: ReturnType<typeof FakeTimers.install>;
  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => clock.uninstall());

  it('runs the work on the next turn of the event loop, never synchronously', async () => {
    const ran: string[] = [];
    afterActivation(() => ran.push('first read'));
    ran.push('activate returned');
    await Promise.resolve();
    assert.deepEqual(ran, ['activate returned'], 'not even in a microtask of activate()');
    await clock.tickAsync(0);
    assert.deepEqual(ran, ['activate returned', 'first read']);
  });

  it('disposed before it ran (deactivated at once): the work never runs', async () => {
    let ran = false;
    const pending = afterActivation(() => {
      ran = true;
    });
    pending.dispose();
    await clock.tickAsync(10);
    assert.equal(ran, false);
  });
});
