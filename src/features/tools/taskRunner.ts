import { spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { OutputTail } from '../../core/agent/commands';

export interface TaskOutcome {
  readonly name: string;
  readonly exitCode: number | undefined;
  /** The last part of the output; undefined when the task's kind does not let it be captured. */
  readonly output: string | undefined;
  readonly cancelled: boolean;
}

const TAIL_CHARS = 4000;

function taskLabel(task: vscode.Task): string {
  return task.source && task.source !== 'Workspace' ? `${task.source}: ${task.name}` : task.name;
}

/** Finds a task by its label (`build`), its source-qualified label (`npm: test`) or its detail. */
export async function findTask(name: string): Promise<{ task: vscode.Task | undefined; available: string[] }> {
  const tasks = await vscode.tasks.fetchTasks();
  const wanted = name.trim();
  const task =
    tasks.find((t) => t.name === wanted) ??
    tasks.find((t) => taskLabel(t) === wanted) ??
    tasks.find((t) => t.name.toLowerCase() === wanted.toLowerCase() || taskLabel(t).toLowerCase() === wanted.toLowerCase());
  return { task, available: [...new Set(tasks.map(taskLabel))].slice(0, 40) };
}

function substitute(value: string, folder: vscode.WorkspaceFolder | undefined): string {
  if (!folder) return value;
  return value
    .replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath)
    .replace(/\$\{workspaceFolderBasename\}/g, folder.name)
    .replace(/\$\{workspaceRoot\}/g, folder.uri.fsPath);
}

function argText(arg: string | vscode.ShellQuotedString): string {
  if (typeof arg === 'string') return /[\s"']/.test(arg) ? JSON.stringify(arg) : arg;
  return arg.quoting === vscode.ShellQuoting.Escape ? arg.value.replace(/([\s"'$`\\])/g, '\\$1') : JSON.stringify(arg.value);
}

interface Plan { command: string; args: string[]; shell: boolean; cwd: string | undefined; env: Record<string, string> | undefined }

function planOf(task: vscode.Task): Plan | undefined {
  const folder = typeof task.scope === 'object' ? task.scope : vscode.workspace.workspaceFolders?.[0];
  const exec = task.execution;
  if (exec instanceof vscode.ShellExecution) {
    const line = exec.commandLine ?? [exec.command, ...(exec.args ?? [])].filter((a): a is string | vscode.ShellQuotedString => a !== undefined).map(argText).join(' ');
    return { command: substitute(line, folder), args: [], shell: true, cwd: substitute(exec.options?.cwd ?? folder?.uri.fsPath ?? '', folder) || undefined, env: exec.options?.env };
  }
  if (exec instanceof vscode.ProcessExecution) {
    return { command: substitute(exec.process, folder), args: exec.args.map((a) => substitute(a, folder)), shell: false, cwd: substitute(exec.options?.cwd ?? folder?.uri.fsPath ?? '', folder) || undefined, env: exec.options?.env };
  }
  return undefined;
}

/** A terminal that runs the task's process itself, so its output can be kept (and still shown). */
class CapturingTerminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  private child: ChildProcess | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly tail: OutputTail,
    private readonly done: (exitCode: number) => void,
  ) {}

  open(): void {
    const { plan } = this;
    this.writeEmitter.fire(`\x1b[2m> ${plan.command}${plan.args.length ? ` ${plan.args.join(' ')}` : ''}\x1b[0m\r\n`);
    const child = spawn(plan.command, plan.args, { shell: plan.shell, cwd: plan.cwd, env: { ...process.env, ...(plan.env ?? {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      this.tail.push(text);
      this.writeEmitter.fire(text.replace(/\r?\n/g, '\r\n'));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', (error) => {
      this.tail.push(`\n${error.message}\n`);
      this.finish(127);
    });
    child.on('close', (code, signal) => this.finish(code ?? (signal ? 130 : 1)));
  }

  private finished = false;
  private finish(code: number): void {
    if (this.finished) return;
    this.finished = true;
    this.done(code);
    this.closeEmitter.fire(code);
  }

  close(): void {
    if (this.child && this.child.exitCode === null) this.child.kill();
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

/**
 * Runs a task and waits for its end. Shell and process tasks (tasks.json, npm scripts...) run
 * through a capturing terminal so the output tail can be returned; other kinds run as they are and
 * only their exit code is known. Cancelling terminates the task.
 */
export async function runTask(task: vscode.Task, token: vscode.CancellationToken): Promise<TaskOutcome> {
  const plan = planOf(task);
  const name = taskLabel(task);
  const disposables: vscode.Disposable[] = [];
  try {
    if (plan) {
      const tail = new OutputTail(TAIL_CHARS);
      let pty: CapturingTerminal | undefined;
      const exit = new Promise<number>((resolve) => {
        const copy = new vscode.Task(task.definition, task.scope ?? vscode.TaskScope.Workspace, task.name, task.source, new vscode.CustomExecution(async () => {
          pty = new CapturingTerminal(plan, tail, resolve);
          return pty;
        }), task.problemMatchers);
        copy.presentationOptions = { ...task.presentationOptions, reveal: vscode.TaskRevealKind.Silent };
        void vscode.tasks.executeTask(copy).then((execution) => {
          disposables.push(token.onCancellationRequested(() => execution.terminate()));
        }, () => resolve(127));
      });
      const cancelled = new Promise<'cancelled'>((resolve) => disposables.push(token.onCancellationRequested(() => resolve('cancelled'))));
      const code = await Promise.race([exit, cancelled]);
      if (code === 'cancelled') {
        pty?.close();
        return { name, exitCode: undefined, output: tail.text(), cancelled: true };
      }
      return { name, exitCode: code, output: tail.text(), cancelled: false };
    }
    const execution = await vscode.tasks.executeTask(task);
    const code = await new Promise<number | 'cancelled' | undefined>((resolve) => {
      disposables.push(
        vscode.tasks.onDidEndTaskProcess((e) => e.execution === execution && resolve(e.exitCode)),
        vscode.tasks.onDidEndTask((e) => e.execution === execution && resolve(undefined)),
        token.onCancellationRequested(() => {
          execution.terminate();
          resolve('cancelled');
        }),
      );
    });
    return { name, exitCode: code === 'cancelled' ? undefined : code, output: undefined, cancelled: code === 'cancelled' };
  } finally {
    for (const d of disposables) d.dispose();
  }
}
