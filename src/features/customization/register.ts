import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { DisposableStore } from '../../platform/disposables';
import { agentShapers } from './agentCommand';
import { registerProblemDiagnostics } from './problems';
import { promptShaper, RUN_PROMPT_FILE_COMMAND, runPromptFile } from './promptCommand';
import { windowUi, type PromptUi } from './promptShape';

/**
 * Issue 35's customization files in the chat: `/prompt` and the Run Prompt File command (prompt
 * files), `/agent` and the agent remembered for the conversation (custom agents), and their
 * front-matter problems as diagnostics. Skills reach the system message through the instructions
 * reader and are read with the `stratus_readSkill` tool (src/features/tools).
 */
export function registerChatShapers(deps: Pick<Deps, 'chatCommands' | 'instructions'>, ui: PromptUi = windowUi): vscode.Disposable {
  const files = deps.instructions.customizations;
  const store = new DisposableStore();
  store.add(deps.chatCommands.registerShaper(promptShaper(files, ui)));
  for (const shaper of agentShapers(files)) store.add(deps.chatCommands.registerShaper(shaper));
  return store;
}

export function register(deps: Deps): vscode.Disposable {
  const store = new DisposableStore();
  store.add(registerChatShapers(deps));
  store.add(registerProblemDiagnostics());
  store.add(vscode.commands.registerCommand(RUN_PROMPT_FILE_COMMAND, (target?: unknown) => runPromptFile(deps.instructions.customizations, windowUi, target)));
  return store;
}
