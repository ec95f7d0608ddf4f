import assert from 'node:assert/strict';
import { TextCallRegistry } from '../../../src/core/agent/textCallRegistry';

describe('agent: calls read from text are known to their confirmation (issue 40)', () => {
  it('marks an invocation while it runs, by name and input as VS Code hands them back', () => {
    const registry = new TextCallRegistry();
    const input = { command: 'npm test', cwd: '.' };
    assert.equal(registry.isFromText('stratus_runInTerminal', input), false, 'a native call: today\'s rules');
    const done = registry.expect('stratus_runInTerminal', input);
    assert.equal(registry.isFromText('stratus_runInTerminal', JSON.parse(JSON.stringify(input)) as unknown), true, 'the same input after a round trip');
    assert.equal(registry.isFromText('stratus_runInTerminal', { command: 'npm test' }), false, 'another input');
    assert.equal(registry.isFromText('stratus_runTask', input), false, 'another tool');
    done();
    assert.equal(registry.isFromText('stratus_runInTerminal', input), false, 'ended');
  });

  it('counts two identical invocations running together; ending one twice ends it once', () => {
    const registry = new TextCallRegistry();
    const first = registry.expect('read', { path: 'a' });
    const second = registry.expect('read', { path: 'a' });
    first();
    first();
    assert.equal(registry.isFromText('read', { path: 'a' }), true);
    second();
    assert.equal(registry.isFromText('read', { path: 'a' }), false);
  });
});
