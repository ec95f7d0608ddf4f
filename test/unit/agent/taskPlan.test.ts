import assert from 'node:assert/strict';
import { dependencyOrder, quoteShellArg, resolveVariables, shellInvocation, taskNodes, type VariableContext } from '../../../src/core/agent/taskPlan';

const ctx: VariableContext = {
  workspaceFolder: '/work/app',
  folders: new Map([['app', '/work/app'], ['lib', '/work/lib']]),
  userHome: '/home/u',
  pathSeparator: '/',
  env: (name) => ({ GREETING: 'bonjour' })[name],
  config: (key) => ({ 'app.port': 8080, 'app.name': 'demo', 'app.list': ['a'] })[key],
};

describe('agent: task plans (run-task tool)', () => {
  it('resolves the variables VS Code resolves for a task, env and config included', () => {
    assert.deepEqual(resolveVariables('cd ${workspaceFolder} && ls ${workspaceFolder:lib}${/}src ${workspaceFolderBasename} ${userHome} ${workspaceRoot}', ctx), { ok: true, value: 'cd /work/app && ls /work/lib/src app /home/u /work/app' });
    assert.deepEqual(resolveVariables('echo ${env:GREETING}-${env:UNSET}-${config:app.port}-${config:app.name}', ctx), { ok: true, value: 'echo bonjour--8080-demo' });
    assert.deepEqual(resolveVariables('echo $HOME ${pathSeparator} $${x', ctx), { ok: true, value: 'echo $HOME / $${x' });
  });

  // Regression (issue 24): these reached the shell as they were.
  for (const [text, why] of [
    ['deploy ${input:target}', /\$\{input:target\} asks the user/],
    ['echo ${command:extension.pick}', /\$\{command:extension\.pick\} runs a command/],
    ['lint ${file}', /\$\{file\} depends on the editor/],
    ['echo ${config:app.missing}', /names no setting/],
    ['echo ${config:app.list}', /not a string, number or boolean/],
    ['ls ${workspaceFolder:nope}', /names no open folder/],
  ] as const) {
    it(`refuses ${text} with a sentence naming the supported variables`, () => {
      const r = resolveVariables(text, ctx);
      assert.ok(!r.ok && why.test(r.reason) && /Supported variables: .*\$\{env:NAME\}/.test(r.reason), JSON.stringify(r));
    });
  }

  it('refuses folder variables for a task without a folder', () => {
    const r = resolveVariables('${workspaceFolder}', { ...ctx, workspaceFolder: undefined });
    assert.ok(!r.ok && /needs a workspace folder/.test(r.reason));
  });

  const nodes = taskNodes([
    { label: 'build', command: 'make', dependsOn: ['gen', 'lint'] },
    { label: 'gen', command: 'gen', dependsOn: 'clean' },
    { label: 'lint', command: 'lint', dependsOn: ['clean'] },
    { label: 'clean', command: 'rm -rf out' },
    { label: 'a', dependsOn: ['b'] },
    { label: 'b', dependsOn: ['a'] },
    { label: 'watch', command: 'tsc -w', isBackground: true },
    { label: 'serve', command: 'serve', dependsOn: ['watch'] },
    { label: 'bad', dependsOn: [{ type: 'npm', script: 'x' }] },
    { label: 'orphan', dependsOn: ['missing'] },
    'not a task',
  ]);
  const lookup = (label: string): ReturnType<typeof nodes.get> => nodes.get(label);

  it('runs dependencies first, depth first in their listed order, each once', () => {
    assert.deepEqual(dependencyOrder('build', lookup), { ok: true, value: ['clean', 'gen', 'lint', 'build'] });
    assert.deepEqual(dependencyOrder('clean', lookup), { ok: true, value: ['clean'] });
    assert.deepEqual(dependencyOrder('npm: test', lookup), { ok: true, value: ['npm: test'] }, 'a task not in tasks.json runs alone');
  });

  for (const [root, why] of [
    ['a', /cycle: a -> b -> a/],
    ['serve', /depends on "watch", a background \(watch\) task/],
    ['bad', /by its definition/],
    ['orphan', /depends on "missing", which is not a task/],
  ] as const) {
    it(`refuses the dependencies of "${root}"`, () => {
      const r = dependencyOrder(root, lookup);
      assert.ok(!r.ok && why.test(r.reason), JSON.stringify(r));
    });
  }

  it('refuses more than 20 tasks', () => {
    const many = taskNodes(Array.from({ length: 30 }, (_, i) => ({ label: `t${i}`, dependsOn: i > 0 ? [`t${i - 1}`] : [] })));
    const r = dependencyOrder('t29', (l) => many.get(l));
    assert.ok(!r.ok && /more than 20 tasks/.test(r.reason));
  });

  it('honours options.shell, adding the run-a-command flag when missing', () => {
    assert.deepEqual(shellInvocation('echo hi', undefined, 'linux'), { command: '/bin/sh', args: ['-c', 'echo hi'], verbatim: false });
    assert.deepEqual(shellInvocation('echo hi', { executable: '/bin/bash', args: ['-l'] }, 'linux'), { command: '/bin/bash', args: ['-l', '-c', 'echo hi'], verbatim: false });
    assert.deepEqual(shellInvocation('echo hi', { executable: 'zsh', args: ['-c'] }, 'darwin'), { command: 'zsh', args: ['-c', 'echo hi'], verbatim: false });
    assert.deepEqual(shellInvocation('dir', undefined, 'win32', 'C:\\Windows\\system32\\cmd.exe'), { command: 'C:\\Windows\\system32\\cmd.exe', args: ['/d', '/c', '"dir"'], verbatim: true });
    assert.deepEqual(shellInvocation('Get-Item .', { executable: 'pwsh.exe' }, 'win32'), { command: 'pwsh.exe', args: ['-Command', 'Get-Item .'], verbatim: false });
  });

  it('quotes shell arguments as VS Code does', () => {
    assert.equal(quoteShellArg('plain', undefined, 'posix'), 'plain');
    assert.equal(quoteShellArg('two words', undefined, 'posix'), "'two words'");
    assert.equal(quoteShellArg("it's $HOME", 'strong', 'posix'), `'it'\\''s $HOME'`);
    assert.equal(quoteShellArg('say "hi" $X', 'weak', 'posix'), '"say \\"hi\\" $X"');
    assert.equal(quoteShellArg('a b', 'escape', 'posix'), 'a\\ b');
    assert.equal(quoteShellArg("it's", 'strong', 'powershell'), "'it''s'");
    assert.equal(quoteShellArg('a "b"', undefined, 'cmd'), '"a ""b"""');
  });
});
