import * as vscode from 'vscode';
import { codeFence, escapeMarkdown, inlineCode } from '../../core/markdown';
import { findTask, planTask, runTaskPlan, taskTimeoutMs, type TaskOutcome, type TaskPlan } from './taskRunner';
import { textResult, ToolFailure } from './workspace';

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
  const tail = outcome.output?.trim() ? `\nOutput (tail):\n${outcome.output.trimEnd()}` : outcome.output === undefined ? '\nOutput: not captured for this kind of task; see the terminal.' : '\nOutput: (none)';
  if (outcome.startError) return `Task ${outcome.name} could not start: ${outcome.startError}.${tail}`;
  if (outcome.cancelled) return `Task ${outcome.name} was stopped before it ended (cancelled); it and every process it started were ended.${outcome.output ? `\nOutput so far (tail):\n${outcome.output}` : ''}`;
  if (outcome.timedOut) return `Task ${outcome.name} was stopped at the time limit (${Math.round(timeoutMs / 1000)} s, setting stratus.tools.taskTimeoutSeconds); it and every process it started were ended.${tail}`;
  if (outcome.failedStep) return `Task ${outcome.name} did not run: the task it depends on, ${outcome.failedStep}, failed (exit code ${outcome.exitCode ?? 'unknown'}).${tail}`;
  const status = outcome.exitCode === undefined ? 'ended (exit code unknown)' : outcome.exitCode === 0 ? 'succeeded (exit code 0)' : `failed (exit code ${outcome.exitCode})`;
  const output = outcome.output === undefined ? 'Output: not captured for this kind of task; see the terminal.' : outcome.output.trim() ? `Output (tail):\n${outcome.output.trimEnd()}` : 'Output: (none)';
  return `Task ${outcome.name} ${status}.\n${output}`;
}

export class RunTaskTool implements vscode.LanguageModelTool<RunTaskInput> {
  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunTaskInput>): Promise<vscode.PreparedToolInvocation> {
    const requested = String(options.input.task ?? '');
    const { task, all } = await findTask(requested);
    // Confirmed even when not found or refused now: tasks.json may change before invoke looks again.
    const plan = task ? planTask(task, all) : undefined;
    return {
      invocationMessage: vscode.l10n.t('Running task {0}', plan?.name ?? requested),
      confirmationMessages: { title: vscode.l10n.t('Run a workspace task?'), message: new vscode.MarkdownString(taskConfirmation(requested, plan)) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RunTaskInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const name = String(options.input.task ?? '');
    const { task, available, all } = await findTask(name);
    if (!task) throw new ToolFailure(`There is no task named "${name}". Available tasks: ${available.join(', ') || '(none: the workspace defines no task)'}.`);
    const plan = planTask(task, all);
    if (plan.kind === 'refused') throw new ToolFailure(plan.reason);
    const timeoutMs = taskTimeoutMs();
    return textResult(describe(await runTaskPlan(plan, token, timeoutMs), timeoutMs));
  }
}
