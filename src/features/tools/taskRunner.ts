import { homedir } from 'node:os';
import { sep } from 'node:path';
import * as vscode from 'vscode';
import { OutputTail } from '../../core/agent/commands';
import { runProcessGroup, type ProcessEnd, type ProcessSpec } from '../../core/agent/processGroup';
import { dependencyOrder, quoteShellArg, resolveVariables, shellFamily, shellInvocation, taskNodes, type Resolved, type VariableContext } from '../../core/agent/taskPlan';
import { stratusConfiguration } from '../../platform/settings';

/*
 * Why the run-task tool runs shell and process tasks itself instead of handing them to VS Code's
 * task system (`vscode.tasks.executeTask`): the model needs the task's output, and the API gives
 * no output of a task (terminal shell integration is not there for every shell or task terminal);
 * `TaskExecution.terminate()` ends the terminal's process but not reliably what it started; and a
 * background (watch) task never fires `onDidEndTaskProcess`, with no API to see its problem
 * matcher say "done". So the tool resolves the task itself (variables, `dependsOn`,
 * `options.shell`), refuses clearly what it cannot resolve exactly (`${input:}`, `${command:}`,
 * editor variables, background tasks), shows the user every command before it runs, and runs each
 * one in its own process group (src/core/agent/processGroup.ts), which cancel, the timeout and the
 * end of the task kill whole. The run still shows in a terminal, through a pseudoterminal task.
 * Tasks of other kinds (an extension's CustomExecution) are run by VS Code, ended by terminate()
 * at cancel or timeout, and their output is not captured.
 */

export interface TaskOutcome {
  readonly name: string;
  readonly exitCode: number | undefined;
  /** The last part of the output; undefined when the task's kind does not let it be captured. */
  readonly output: string | undefined;
  readonly cancelled: boolean;
  readonly timedOut?: boolean;
  /** The dependency that failed, when one did (the task itself then did not run). */
  readonly failedStep?: string;
  /** Why the task could not start, when it could not. */
  readonly startError?: string;
}

export interface TaskStep {
  readonly label: string;
  readonly spec: ProcessSpec;
  /** What the user is shown: the command line (or program and arguments) exactly as run. */
  readonly display: string;
  /** Shell and its arguments, when the task sets `options.shell`. */
  readonly shell?: string;
}

export type TaskPlan =
  | { readonly kind: 'steps'; readonly name: string; readonly task: vscode.Task; readonly steps: readonly TaskStep[] }
  | { readonly kind: 'vscode'; readonly name: string; readonly task: vscode.Task }
  | { readonly kind: 'refused'; readonly name: string; readonly reason: string };

const TAIL_CHARS = 4000;

export function taskLabel(task: vscode.Task): string {
  return task.source && task.source !== 'Workspace' ? `${task.source}: ${task.name}` : task.name;
}

function matchTask(tasks: readonly vscode.Task[], name: string): vscode.Task | undefined {
  const wanted = name.trim();
  return (
    tasks.find((t) => t.name === wanted) ??
    tasks.find((t) => taskLabel(t) === wanted) ??
    tasks.find((t) => t.name.toLowerCase() === wanted.toLowerCase() || taskLabel(t).toLowerCase() === wanted.toLowerCase())
  );
}

/** Finds a task by its label (`build`), its source-qualified label (`npm: test`) or its detail. */
export async function findTask(name: string): Promise<{ task: vscode.Task | undefined; available: string[]; all: vscode.Task[] }> {
  const all = await vscode.tasks.fetchTasks();
  return { task: matchTask(all, name), available: [...new Set(all.map(taskLabel))].slice(0, 40), all };
}

export function taskTimeoutMs(): number {
  const seconds = stratusConfiguration('stratus').get<number>('tools.taskTimeoutSeconds', 600);
  return Math.min(86_400, Math.max(10, typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : 600)) * 1000;
}

function folderOf(task: vscode.Task): vscode.WorkspaceFolder | undefined {
  if (typeof task.scope === 'object') return task.scope;
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length === 1 ? folders[0] : undefined;
}

function variableContext(folder: vscode.WorkspaceFolder | undefined): VariableContext {
  const config = vscode.workspace.getConfiguration(undefined, folder?.uri);
  return {
    workspaceFolder: folder?.uri.fsPath,
    folders: new Map((vscode.workspace.workspaceFolders ?? []).map((f) => [f.name, f.uri.fsPath])),
    userHome: homedir(),
    pathSeparator: sep,
    env: (name) => process.env[name],
    config: (key) => config.get(key),
  };
}

class Refusal extends Error {}

function must(result: Resolved<string>, label: string): string {
  if (!result.ok) throw new Refusal(`The task "${label}" cannot run: ${result.reason}`);
  return result.value;
}

function displayArg(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : JSON.stringify(value);
}

/** One task's own process, resolved; undefined for a task with no command of its own (only dependsOn). */
function stepOf(task: vscode.Task, label: string): TaskStep | undefined {
  const folder = folderOf(task);
  const ctx = variableContext(folder);
  const resolve = (text: string): string => must(resolveVariables(text, ctx), label);
  const exec = task.execution;
  if (!(exec instanceof vscode.ShellExecution) && !(exec instanceof vscode.ProcessExecution)) return undefined;
  const cwd = resolve(exec.options?.cwd ?? folder?.uri.fsPath ?? '') || undefined;
  const taskEnv = Object.entries(exec.options?.env ?? {}).map(([k, v]) => [k, resolve(v)] as const);
  const env = { ...process.env, ...Object.fromEntries(taskEnv) };
  const envNote = taskEnv.length > 0 ? `\n# environment: ${taskEnv.map(([k, v]) => `${k}=${displayArg(v)}`).join(' ')}` : '';
  const cwdNote = cwd && cwd !== folder?.uri.fsPath ? `\n# in folder: ${cwd}` : '';
  if (exec instanceof vscode.ProcessExecution) {
    const command = resolve(exec.process);
    const args = exec.args.map(resolve);
    return { label, spec: { command, args, cwd, env }, display: `${[command, ...args].map(displayArg).join(' ')}${cwdNote}${envNote}` };
  }
  const executable = exec.options?.executable ? resolve(exec.options.executable) : undefined;
  const shellArgs = exec.options?.shellArgs?.map(resolve);
  const family = shellFamily(executable ?? (process.platform === 'win32' ? 'cmd.exe' : '/bin/sh'));
  const piece = (a: string | vscode.ShellQuotedString): string =>
    typeof a === 'string' ? quoteShellArg(resolve(a), undefined, family) : quoteShellArg(resolve(a.value), a.quoting === vscode.ShellQuoting.Escape ? 'escape' : a.quoting === vscode.ShellQuoting.Weak ? 'weak' : 'strong', family);
  const commandLine = exec.commandLine !== undefined ? resolve(exec.commandLine) : [exec.command, ...(exec.args ?? [])].filter((a): a is string | vscode.ShellQuotedString => a !== undefined).map(piece).join(' ');
  if (!commandLine.trim()) return undefined;
  const invocation = shellInvocation(commandLine, { executable, args: shellArgs }, process.platform, process.env.ComSpec);
  const shell = executable ? [executable, ...(shellArgs ?? [])].join(' ') : undefined;
  return { label, spec: { command: invocation.command, args: invocation.args, cwd, env, verbatim: invocation.verbatim }, display: `${commandLine}${cwdNote}${envNote}`, ...(shell ? { shell } : {}) };
}

function tasksJsonNodes(task: vscode.Task): ReturnType<typeof taskNodes> {
  const folder = typeof task.scope === 'object' ? task.scope : undefined;
  return taskNodes(vscode.workspace.getConfiguration('tasks', folder?.uri).get<unknown>('tasks'));
}

/** What running `task` means: the commands to run in order, a task VS Code must run, or a refusal. */
export function planTask(task: vscode.Task, all: readonly vscode.Task[]): TaskPlan {
  const name = taskLabel(task);
  const nodes = tasksJsonNodes(task);
  const background = (t: vscode.Task): boolean => t.isBackground || (nodes.get(t.name) as { isBackground?: boolean } | undefined)?.isBackground === true;
  if (background(task)) {
    return { kind: 'refused', name, reason: `"${name}" is a background (watch) task: it does not end on its own, so stratus_runTask does not run it (it would never finish). The user can start it with Terminal > Run Task.` };
  }
  const isOwn = (t: vscode.Task): boolean => t.execution instanceof vscode.ShellExecution || t.execution instanceof vscode.ProcessExecution;
  const order = nodes.has(task.name) ? dependencyOrder(task.name, (label) => nodes.get(label)) : ({ ok: true, value: [task.name] } as const);
  if (!order.ok) return { kind: 'refused', name, reason: order.reason };
  if (order.value.length === 1 && !isOwn(task)) return { kind: 'vscode', name, task };
  const steps: TaskStep[] = [];
  try {
    for (const label of order.value) {
      const t = label === task.name ? task : all.find((c) => c.name === label && c.scope === task.scope) ?? matchTask(all, label);
      if (!t) return { kind: 'refused', name, reason: `"${name}" depends on "${label}", which VS Code does not list as a task.` };
      if (background(t)) return { kind: 'refused', name, reason: `"${name}" depends on "${label}", a background (watch) task that does not end on its own; stratus_runTask runs only tasks that end.` };
      if (!isOwn(t)) return { kind: 'refused', name, reason: `"${name}" depends on "${label}", a task of a kind stratus_runTask cannot run as a step.` };
      const step = stepOf(t, label);
      if (step) steps.push(step);
    }
  } catch (error) {
    if (error instanceof Refusal) return { kind: 'refused', name, reason: error.message };
    throw error;
  }
  if (steps.length === 0) return { kind: 'refused', name, reason: `"${name}" has no command to run.` };
  return { kind: 'steps', name, task, steps };
}

interface StepsResult {
  readonly end: ProcessEnd;
  readonly failedStep?: string;
}

/** Runs the steps one after another, each in its own process group, and shows them in a terminal. */
class StepsTerminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  private readonly abort = new AbortController();

  constructor(
    private readonly steps: readonly TaskStep[],
    private readonly tail: OutputTail,
    private readonly timeoutMs: number,
    private readonly done: (result: StepsResult) => void,
  ) {}

  open(): void {
    void this.run();
  }

  private async run(): Promise<void> {
    let result: StepsResult = { end: { reason: 'exited', exitCode: 0 } };
    for (const [i, step] of this.steps.entries()) {
      this.writeEmitter.fire(`\x1b[2m> ${step.label}: ${step.display.replace(/\r?\n/g, '\r\n  ')}\x1b[0m\r\n`);
      const end = await runProcessGroup(step.spec, {
        signal: this.abort.signal,
        timeoutMs: this.timeoutMs,
        onOutput: (text) => {
          this.tail.push(text);
          this.writeEmitter.fire(text.replace(/\r?\n/g, '\r\n'));
        },
      });
      result = { end, ...(i < this.steps.length - 1 ? { failedStep: step.label } : {}) };
      if (end.reason !== 'exited' || end.exitCode !== 0) break;
      result = { end };
    }
    if (result.end.error) this.tail.push(`\n${result.end.error}\n`);
    this.done(result);
    this.closeEmitter.fire(result.end.exitCode ?? 1);
  }

  /** The user closed the terminal, or the tool was cancelled. */
  close(): void {
    this.abort.abort();
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }
}

function outcomeOf(name: string, result: StepsResult, output: string): TaskOutcome {
  const { end } = result;
  return {
    name,
    exitCode: end.exitCode,
    output,
    cancelled: end.reason === 'cancelled',
    ...(end.reason === 'timeout' ? { timedOut: true } : {}),
    ...(result.failedStep ? { failedStep: result.failedStep } : {}),
    ...(end.reason === 'failedToStart' ? { startError: end.error ?? 'it could not start' } : {}),
  };
}

/**
 * Runs a planned task and waits for its end, the timeout or cancellation; in each case no process
 * it started is left running (for tasks VS Code runs, as far as terminate() reaches).
 */
export async function runTaskPlan(plan: Exclude<TaskPlan, { kind: 'refused' }>, token: vscode.CancellationToken, timeoutMs: number): Promise<TaskOutcome> {
  const disposables: vscode.Disposable[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancelled = new Promise<'cancelled'>((resolve) => {
    if (token.isCancellationRequested) resolve('cancelled');
    disposables.push(token.onCancellationRequested(() => resolve('cancelled')));
  });
  try {
    if (plan.kind === 'steps') {
      const tail = new OutputTail(TAIL_CHARS);
      let pty: StepsTerminal | undefined;
      const result = new Promise<StepsResult>((resolve) => {
        const { task } = plan;
        const copy = new vscode.Task(task.definition, task.scope ?? vscode.TaskScope.Workspace, task.name, task.source, new vscode.CustomExecution(async () => (pty = new StepsTerminal(plan.steps, tail, timeoutMs, resolve))), task.problemMatchers);
        copy.presentationOptions = { ...task.presentationOptions, reveal: vscode.TaskRevealKind.Silent };
        vscode.tasks.executeTask(copy).then(undefined, (error: unknown) => resolve({ end: { reason: 'failedToStart', exitCode: undefined, error: error instanceof Error ? error.message : String(error) } }));
      });
      // If VS Code never opens the terminal, the process timeout never starts: bound that wait too.
      const notStarted = new Promise<'notStarted'>((resolve) => (timer = setTimeout(() => pty === undefined && resolve('notStarted'), timeoutMs)));
      const first = await Promise.race([result, cancelled, notStarted]);
      if (first === 'notStarted') return { name: plan.name, exitCode: undefined, output: tail.text(), cancelled: false, startError: 'VS Code did not start the task (is another run of it still active?)' };
      if (first === 'cancelled') {
        if (!pty) return { name: plan.name, exitCode: undefined, output: tail.text(), cancelled: true };
        pty.close();
        return { ...outcomeOf(plan.name, await result, tail.text()), cancelled: true };
      }
      return outcomeOf(plan.name, first, tail.text());
    }
    const execution = await vscode.tasks.executeTask(plan.task);
    const code = await new Promise<number | 'cancelled' | 'timeout' | undefined>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      disposables.push(
        vscode.tasks.onDidEndTaskProcess((e) => e.execution === execution && resolve(e.exitCode)),
        vscode.tasks.onDidEndTask((e) => e.execution === execution && resolve(undefined)),
      );
      void cancelled.then(resolve);
    });
    if (code === 'cancelled' || code === 'timeout') execution.terminate();
    return { name: plan.name, exitCode: typeof code === 'number' ? code : undefined, output: undefined, cancelled: code === 'cancelled', ...(code === 'timeout' ? { timedOut: true } : {}) };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    for (const d of disposables) d.dispose();
  }
}
