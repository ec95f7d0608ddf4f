import * as vscode from 'vscode';
import { codeFence, escapeMarkdown, inlineCode } from '../../core/markdown';
import { findTask, planTask, runTaskPlan, taskTimeoutMs, type TaskOutcome, type TaskPlan } from './taskRunner';
import { textResult, ToolFailure } from '../../platform/toolWorkspace';

interface RunTaskInput { task: string }

/** The confirmation: every command the task will run (dependencies first), exactly as run. */
export function taskConfirmation(requested: string, plan: TaskPlan | undefined): string {
  if (!plan) return vscode.l10n.t('Run the task **{0}** (not found now; it will be refused unless it appears).', escapeMarkdown(requested));
  if (plan.kind === 'refused') return `${vscode.l10n.t('Run the task **{0}**?', escapeMarkdown(plan.name))}\n\n${vscode.l10n.t('It will be refused: {0}', escapeMarkdown(plan.reason))}`;
  if (plan.kind === 'vscode') return vscode.l10n.t('Run the task **{0}** (run by VS Code; its commands are defined by the extension that provides it).', escapeMarkdown(plan.name));
  const steps = plan.steps.map((step, i) => {
    const shell = step.shell ? `${vscode.l10n.t('Shell: {0}', inlineCode(step.shell))}\n\n` : '';
    const heading = plan.steps.length > 1 ? `${i + 1}. **${escapeMarkdown(step.label)}**\n\n` : '';
    return `${heading}${shell}${codeFence(step.display)}`;
  });
  const intro = plan.steps.length > 1 ? vscode.l10n.t('Run the task **{0}**, which runs these commands in this order:', escapeMarkdown(plan.name)) : vscode.l10n.t('Run the task **{0}**:', escapeMarkdown(plan.name));
  return `${intro}\n\n${steps.join('\n\n')}`;
}

function describe(outcome: TaskOutcome, timeoutMs: number): string {
  const output = outcome.output === undefined ? 'Output: not captured for this kind of task; see the terminal.' : outcome.output.trim() ? `Output (tail):\n${outcome.output.trimEnd()}` : 'Output: (none)';
  if (outcome.startError) return `Task ${outcome.name} could not start: ${outcome.startError}.\n${output}`;
  if (outcome.cancelled) return `Task ${outcome.name} was stopped before it ended (cancelled); it and every process it started were ended.${outcome.output ? `\nOutput so far (tail):\n${outcome.output}` : ''}`;
  if (outcome.timedOut) return `Task ${outcome.name} was stopped at the time limit (${Math.round(timeoutMs / 1000)} s, setting stratus.tools.taskTimeoutSeconds); it and every process it started were ended.\n${output}`;
  if (outcome.failedStep) return `Task ${outcome.name} did not run: the task it depends on, ${outcome.failedStep}, failed (exit code ${outcome.exitCode ?? 'unknown'}).\n${output}`;
  const status = outcome.exitCode === undefined ? 'ended (exit code unknown)' : outcome.exitCode === 0 ? 'succeeded (exit code 0)' : `failed (exit code ${outcome.exitCode})`;
  return `Task ${outcome.name} ${status}.\n${output}`;
}

export class RunTaskTool implements vscode.LanguageModelTool<RunTaskInput> {
  /** What the user was last shown for each requested task: invoke refuses to run anything else. */
  private readonly confirmed = new Map<string, string>();

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunTaskInput>): Promise<vscode.PreparedToolInvocation> {
    const requested = String(options.input.task ?? '');
    const { task, all } = await findTask(requested);
    // Confirmed even when not found or refused now: tasks.json may change before invoke looks again.
    const plan = task ? planTask(task, all) : undefined;
    const message = taskConfirmation(requested, plan);
    this.confirmed.set(requested, message);
    return {
      invocationMessage: vscode.l10n.t('Running task {0}', plan?.name ?? requested),
      confirmationMessages: { title: vscode.l10n.t('Run a workspace task?'), message: new vscode.MarkdownString(message) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RunTaskInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const name = String(options.input.task ?? '');
    const { task, available, all } = await findTask(name);
    if (!task) throw new ToolFailure(`There is no task named "${name}". Available tasks: ${available.join(', ') || '(none: the workspace defines no task)'}.`);
    const plan = planTask(task, all);
    if (plan.kind === 'refused') throw new ToolFailure(plan.reason);
    // tasks.json (or a variable) may have changed since the user confirmed: run only what was shown.
    const shown = this.confirmed.get(name);
    this.confirmed.delete(name);
    if (shown !== undefined && shown !== taskConfirmation(name, plan)) throw new ToolFailure(`The task "${plan.name}" changed after the user confirmed it (its commands are not the ones shown), so it was not run. Call stratus_runTask again to ask the user about the new commands.`);
    const timeoutMs = taskTimeoutMs();
    return textResult(describe(await runTaskPlan(plan, token, timeoutMs), timeoutMs));
  }
}
