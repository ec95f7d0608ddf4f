import * as vscode from 'vscode';
import type { TurnShape } from '../../platform/chatCommands';
import { DisposableStore } from '../../platform/disposables';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { READ_ONLY_TOOLS, ToolNames } from '../../core/agent/toolNames';

export const PLAN_COMMAND = 'plan';

/**
 * Plan mode's tools: Stratus' read-only ones (core/agent/toolNames.ts: read, list, search, diagnostics, the active
 * editor, cloud lists and descriptions, documents) and the to-do list. VS Code's other tools are
 * not offered: their side effects are not known here.
 */
export function planModeAllows(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(READ_ONLY_TOOLS, name);
}

export const PLAN_INSTRUCTIONS = [
  'Plan mode: the user wants a plan, not changes. Do not edit files, run commands or change cloud resources (those tools are not available).',
  'Read and search what the task needs first. Then answer in Markdown: a title, a numbered list of steps (for each: what to change, in which file or resource, and why), then risks and how to check the result.',
  `Record the steps with ${ToolNames.todo} (action "add", one title per step) so the implementation can follow them.`,
].join(' ');

/** The shape of a `/plan` turn: read-only tools, plan instructions, and the buttons at its end. */
export function planShape(request: vscode.ChatRequest): TurnShape | { readonly result: vscode.ChatResult } {
  return {
    ...(request.prompt.trim() ? {} : { prompt: 'Plan the task we discussed.' }),
    instructions: PLAN_INSTRUCTIONS,
    allowTool: planModeAllows,
    metadata: { plan: true },
    finish: (answer, stream) => {
      if (!answer.trim()) return;
      stream.button({ command: Commands.implementPlan, title: vscode.l10n.t('Implement'), arguments: [answer] });
      stream.button({ command: Commands.savePlan, title: vscode.l10n.t('Save Plan'), arguments: [answer] });
    },
  };
}

/** Starts an ordinary @stratus turn with the plan (its to-do list is carried on from the plan's answer). */
async function implementPlan(plan: unknown): Promise<void> {
  if (typeof plan !== 'string' || !plan.trim()) return;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@stratus ${vscode.l10n.t('Implement this plan, step by step, following its to-do list:')}\n\n${plan}` });
}

/** Saves the plan where the user says: a new untitled document, or a file they pick. Never silently. */
async function savePlan(plan: unknown): Promise<void> {
  if (typeof plan !== 'string' || !plan.trim()) return;
  const untitled = vscode.l10n.t('Open as an untitled document');
  const file = vscode.l10n.t('Save to a file…');
  const choice = await vscode.window.showQuickPick([untitled, file], { placeHolder: vscode.l10n.t('Save the plan') });
  const content = plan.endsWith('\n') ? plan : `${plan}\n`;
  if (choice === untitled) {
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.window.showTextDocument(document, { preview: false });
  } else if (choice === file) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({ filters: { Markdown: ['md'] }, ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'plan.md') } : {}), saveLabel: vscode.l10n.t('Save Plan') });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
    await vscode.window.showTextDocument(target, { preview: false });
  }
}

/** `@stratus /plan`, and the Implement and Save Plan buttons of its answers. */
export function register(deps: Deps): vscode.Disposable {
  const store = new DisposableStore();
  store.add(deps.chatCommands.registerShaper({ command: PLAN_COMMAND, shape: (request) => Promise.resolve(planShape(request)) }));
  store.add(vscode.commands.registerCommand(Commands.implementPlan, implementPlan));
  store.add(vscode.commands.registerCommand(Commands.savePlan, savePlan));
  return store;
}
