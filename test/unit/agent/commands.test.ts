import assert from 'node:assert/strict';
import { checkCommand, DEFAULT_COMMAND_ALLOWLIST, OutputTail } from '../../../src/core/agent/commands';

describe('agent: command allowlist', () => {
  const allow = ['workbench.actions.view.problems', 'vscode.executeHoverProvider'];

  it('runs listed commands with plain arguments', () => {
    assert.deepEqual(checkCommand(allow, 'vscode.executeHoverProvider', [{ $uri: 'a.ts' }, { $position: { line: 1, character: 2 } }]), { ok: true });
    assert.ok(DEFAULT_COMMAND_ALLOWLIST.every((id) => !/delete|remove|install|terminal|chat|setApiKey|signIn/i.test(id)), 'defaults are read-only');
  });

  for (const [id, why] of [
    ['workbench.action.terminal.new', /not in the allowlist/],
    ['Workbench.actions.view.problems', /not in the allowlist/],
    [' workbench.actions.view.problems', /not a command id/],
    ['workbench.actions.view.problems\n', /not a command id/],
    ['workbench.actions.view', /not in the allowlist/],
    ['workbench.actions.view.problems.x', /not in the allowlist/],
  ] as const) {
    it(`refuses ${JSON.stringify(id)}`, () => {
      const r = checkCommand(allow, id, []);
      assert.ok(!r.ok && why.test(r.reason), JSON.stringify(r));
    });
  }

  for (const args of [['command:workbench.action.terminal.new'], [{ nested: [' COMMAND:x'] }], [{ command: 'x' }], [{ a: { commandId: 'y' } }]]) {
    it(`refuses smuggling arguments ${JSON.stringify(args)}`, () => {
      const r = checkCommand(allow, 'workbench.actions.view.problems', args);
      assert.ok(!r.ok && /could run another command/.test(r.reason), JSON.stringify(r));
    });
  }

  // Regression (issue 24): VS Code revives {"$mid": ...} objects into URIs and other objects.
  for (const args of [[{ $mid: 1, scheme: 'command', path: 'workbench.action.terminal.new' }], [{ a: [{ $mid: 21 }] }], [JSON.parse('{"__proto__": {"x": 1}}')], [Number.NaN], [new Date(0)]]) {
    it(`refuses arguments that are not plain JSON ${String(JSON.stringify(args))}`, () => {
      const r = checkCommand(allow, 'workbench.actions.view.problems', args);
      assert.ok(!r.ok && /must be plain JSON values/.test(r.reason), JSON.stringify(r));
    });
  }

  it('keeps the tail of a long output with a note', () => {
    const tail = new OutputTail(10);
    for (let i = 0; i < 10; i++) tail.push(`line ${i}\n`);
    assert.equal(tail.text(), '[first 60 characters omitted]\n 8\nline 9\n');
    const short = new OutputTail(100);
    short.push('ok\n');
    assert.equal(short.text(), 'ok\n');
  });
});
