import * as vscode from 'vscode';
import type { PromptFile } from '../../core/agent/customization';
import { escapeMarkdown } from '../../core/markdown';
import type { TurnShape, TurnShaper } from '../../platform/chatCommands';
import type { CustomizationFiles, Located } from '../../services/customizations';
import { leadingName } from './agentShape';
import { promptShape, type PromptUi } from './promptShape';

export const PROMPT_COMMAND = 'prompt';
export const RUN_PROMPT_FILE_COMMAND = 'stratus.runPromptFile';

/** A prompt file by name (case-insensitive), or by its path in the workspace (`docs/x.prompt.md`). */
async function findPrompt(files: CustomizationFiles, items: readonly Located<PromptFile>[], name: string): Promise<Located<PromptFile> | undefined> {
  const byName = items.find((p) => p.file.name.toLowerCase() === name.toLowerCase());
  if (byName || !name.toLowerCase().endsWith('.prompt.md')) return byName;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const parts = name.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.includes('..')) return undefined;
    const found = await files.promptFileAt(vscode.Uri.joinPath(folder.uri, ...parts));
    if (found) return found;
  }
  return undefined;
}

/** `/prompt` (a quick pick of the prompt files), `/prompt <name> [input=value...] [more text]`. */
async function promptCommand(files: CustomizationFiles, ui: PromptUi, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<TurnShape | { result: vscode.ChatResult }> {
  const text = request.prompt.trim();
  const { items, untrusted } = await files.promptFiles();
  // The longest prompt file name the line starts with: names may have spaces.
  const name = leadingName(text, items.map((p) => p.file.name));
  if (untrusted) stream.markdown(`> _${vscode.l10n.t("This workspace's prompt files, custom agents and skills are not read: it is not trusted. Your own prompt files (stratus.agent.promptFilesFolder) still are.")}_\n\n`);
  let chosen: Located<PromptFile> | undefined;
  if (name === '') {
    if (items.length === 0) {
      // Untrusted: the note above says why there is none.
      if (!untrusted) stream.markdown(vscode.l10n.t('No prompt file found. Add one as `.github/prompts/<name>.prompt.md`, or set `stratus.agent.promptFilesFolder` to a folder of your own.'));
      return { result: {} };
    }
    chosen = await ui.pick(items);
    if (token.isCancellationRequested) return { result: {} };
    if (!chosen) {
      stream.markdown(vscode.l10n.t('No prompt file chosen.'));
      return { result: {} };
    }
  } else {
    chosen = await findPrompt(files, items, name);
    if (!chosen) {
      const known = items.map((p) => p.file.name).join(', ');
      stream.markdown(known ? vscode.l10n.t('There is no prompt file named {0}. Prompt files: {1}.', `**${escapeMarkdown(name)}**`, escapeMarkdown(known)) : vscode.l10n.t('There is no prompt file named {0}.', `**${escapeMarkdown(name)}**`));
      return { result: {} };
    }
  }
  return promptShape(files, chosen, name === '' ? '' : text.slice(name.length), stream, ui, token);
}

export function promptShaper(files: CustomizationFiles, ui: PromptUi): TurnShaper {
  return { command: PROMPT_COMMAND, shape: (request, _context, stream, token) => promptCommand(files, ui, request, stream, token) };
}

/**
 * "Stratus: Run Prompt File": from a prompt file's editor title (its URI), else a quick pick; opens
 * the chat with `@stratus /prompt <name or path>`, where inputs are asked and the turn runs.
 */
export async function runPromptFile(files: CustomizationFiles, ui: PromptUi, target?: unknown): Promise<void> {
  let query: string | undefined;
  if (target instanceof vscode.Uri) {
    const located = await files.promptFileAt(target);
    if (!located) {
      void vscode.window.showWarningMessage(files.trusted || !vscode.workspace.getWorkspaceFolder(target)
        ? vscode.l10n.t('{0} is not a prompt file of this workspace or of stratus.agent.promptFilesFolder.', target.path.split('/').pop() ?? '')
        : vscode.l10n.t('Prompt files of this workspace are not read: it is not trusted.'));
      return;
    }
    const listed = (await files.promptFiles()).items.some((p) => p.uri.toString() === located.uri.toString());
    query = listed ? located.file.name : vscode.workspace.asRelativePath(located.uri, false);
  } else {
    const { items } = await files.promptFiles();
    if (items.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No prompt file found. Add one as .github/prompts/<name>.prompt.md, or set stratus.agent.promptFilesFolder.'));
      return;
    }
    query = (await ui.pick(items))?.file.name;
  }
  if (query === undefined) return;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@stratus /${PROMPT_COMMAND} ${query}` });
}
