// The run-task tool in a real extension host: tasks.json tasks with variables, dependsOn,
// options.shell and background tasks, and cancellation that ends every process a task started.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { RunTaskTool } from '../../src/features/tools/actionTools';
import { eventually } from './sandbox';
import { isRunning } from '../shared/processes';

const text = (result: vscode.LanguageModelToolResult): string => result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
const invokeOptions = <T>(input: T): vscode.LanguageModelToolInvocationOptions<T> => ({ input, toolInvocationToken: undefined });
const prepareOptions = <T>(input: T): vscode.LanguageModelToolInvocationPrepareOptions<T> => ({ input });
const confirmation = async (task: string): Promise<string> => ((await new RunTaskTool().prepareInvocation(prepareOptions({ task }))).confirmationMessages?.message as vscode.MarkdownString).value;


(process.platform === 'win32' ? describe.skip : describe)('runTask: tasks run as VS Code would run them, and end whole', function () {
  this.timeout(60_000);
  let root: string;
  let scratch: string;
  const pidFile = (): string => join(scratch, 'grandchild.pid');

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    root = folder.uri.fsPath;
    scratch = mkdtempSync(join(tmpdir(), 'stratus-runtask-'));
    mkdirSync(join(root, '.vscode'), { recursive: true });
    const tasks = [
      { label: 'rt-grandchild', type: 'shell', command: `sleep 1000 & echo $! > ${JSON.stringify(pidFile())}; wait` },
      { label: 'rt-watch', type: 'shell', command: 'sleep 1000', isBackground: true, problemMatcher: [] },
      { label: 'rt-input', type: 'shell', command: 'echo ${input:target}' },
      { label: 'rt-vars', type: 'shell', command: 'echo "vars:${env:STRATUS_RT_VAR}|${workspaceFolderBasename}|${config:stratus.tools.maxFileBytes}"' },
      { label: 'rt-dep-a', type: 'shell', command: 'echo dep-a-ran' },
      { label: 'rt-dep-b', type: 'process', command: 'sh', args: ['-c', 'echo dep-b-ran'] },
      { label: 'rt-main', type: 'shell', command: 'echo main-ran', dependsOn: ['rt-dep-a', 'rt-dep-b'] },
      { label: 'rt-fail', type: 'shell', command: 'exit 4' },
      { label: 'rt-after-fail', type: 'shell', command: 'echo must-not-run', dependsOn: 'rt-fail' },
      { label: 'rt-on-watch', type: 'shell', command: 'echo x', dependsOn: ['rt-watch'] },
      { label: 'rt-bash', type: 'shell', command: 'echo "shell:[$BASH_VERSION]"', options: { shell: { executable: '/bin/bash', args: ['-c'] } } },
    ];
    writeFileSync(join(root, '.vscode', 'tasks.json'), JSON.stringify({ version: '2.0.0', tasks, inputs: [{ id: 'target', type: 'promptString', description: 'Target' }] }));
    process.env.STRATUS_RT_VAR = 'from-env';
    await eventually(async () => ((await vscode.tasks.fetchTasks()).some((t) => t.name === 'rt-bash') ? true : undefined), 'tasks.json to be read', 20_000);
  });

  after(() => {
    rmSync(join(root, '.vscode'), { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    delete process.env.STRATUS_RT_VAR;
  });

  it('cancel ends the task\'s grandchildren, not only its shell', async () => {
    const source = new vscode.CancellationTokenSource();
    const running = Promise.resolve(new RunTaskTool().invoke(invokeOptions({ task: 'rt-grandchild' }), source.token));
    const pid = await eventually(async () => (existsSync(pidFile()) ? Number(readFileSync(pidFile(), 'utf8').trim()) || undefined : undefined), 'the task to start its background child');
    assert.ok(isRunning(pid));
    source.cancel();
    assert.match(text(await running), /^Task rt-grandchild was stopped before it ended \(cancelled\); it and every process it started were ended\./);
    await eventually(async () => (isRunning(pid) ? undefined : true), `grandchild ${pid} to end`, 10_000);
  });

  it('refuses a background (watch) task at once instead of waiting for an end that never comes', async () => {
    await assert.rejects(Promise.resolve(new RunTaskTool().invoke(invokeOptions({ task: 'rt-watch' }), new vscode.CancellationTokenSource().token)), /"rt-watch" is a background \(watch\) task/);
    await assert.rejects(Promise.resolve(new RunTaskTool().invoke(invokeOptions({ task: 'rt-on-watch' }), new vscode.CancellationTokenSource().token)), /depends on "rt-watch", a background \(watch\) task/);
    assert.match(await confirmation('rt-watch'), /It will be refused: .*background \\\(watch\\\) task/);
  });

  it('refuses ${input:} instead of passing it to the shell, and resolves ${env:}, ${config:} and folder variables', async () => {
    await assert.rejects(Promise.resolve(new RunTaskTool().invoke(invokeOptions({ task: 'rt-input' }), new vscode.CancellationTokenSource().token)), /\$\{input:target\} asks the user for a value/);
    const result = text(await new RunTaskTool().invoke(invokeOptions({ task: 'rt-vars' }), new vscode.CancellationTokenSource().token));
    assert.match(result, new RegExp(`vars:from-env\\|${basename(root)}\\|200000`));
    assert.match(await confirmation('rt-vars'), new RegExp(`echo "vars:from-env\\|${basename(root)}\\|200000"`), 'the confirmation shows the command as it runs');
  });

  it('runs only what the user was shown: a task whose commands changed after the confirmation is refused', async () => {
    const tool = new RunTaskTool();
    await tool.prepareInvocation(prepareOptions({ task: 'rt-vars' }));
    process.env.STRATUS_RT_VAR = 'changed-since';
    try {
      await assert.rejects(Promise.resolve(tool.invoke(invokeOptions({ task: 'rt-vars' }), new vscode.CancellationTokenSource().token)), /changed after the user confirmed it/);
    } finally {
      process.env.STRATUS_RT_VAR = 'from-env';
    }
    await tool.prepareInvocation(prepareOptions({ task: 'rt-vars' }));
    assert.match(text(await tool.invoke(invokeOptions({ task: 'rt-vars' }), new vscode.CancellationTokenSource().token)), /vars:from-env/);
  });

  it('runs dependsOn first, shows every command in the confirmation, and stops at a failed dependency', async () => {
    const shown = await confirmation('rt-main');
    assert.match(shown, /in this order:\n\n1\. \*\*rt\\-dep\\-a\*\*\n\n```\necho dep-a-ran\n```\n\n2\. \*\*rt\\-dep\\-b\*\*\n\n```\nsh -c "echo dep-b-ran"\n```\n\n3\. \*\*rt\\-main\*\*\n\n```\necho main-ran\n```/);
    const result = text(await new RunTaskTool().invoke(invokeOptions({ task: 'rt-main' }), new vscode.CancellationTokenSource().token));
    assert.match(result, /^Task rt-main succeeded \(exit code 0\)\.\nOutput \(tail\):\ndep-a-ran\ndep-b-ran\nmain-ran$/);
    const failed = text(await new RunTaskTool().invoke(invokeOptions({ task: 'rt-after-fail' }), new vscode.CancellationTokenSource().token));
    assert.match(failed, /^Task rt-after-fail did not run: the task it depends on, rt-fail, failed \(exit code 4\)\./);
    assert.ok(!failed.includes('must-not-run'));
  });

  it('honours options.shell', async function () {
    assert.ok(existsSync('/bin/bash'), 'bash is on the machine (Debian; scripts/setup.sh runs under it)');
    const result = text(await new RunTaskTool().invoke(invokeOptions({ task: 'rt-bash' }), new vscode.CancellationTokenSource().token));
    assert.match(result, /shell:\[\d+\.\d+/);
    assert.match(await confirmation('rt-bash'), /Shell: `\/bin\/bash -c`/);
  });
});
