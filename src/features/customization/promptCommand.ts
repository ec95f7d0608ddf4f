import * as vscode from 'vscode';
import type { PromptFile } from '../../core/agent/customization';
import { filesOption } from '../../core/agent/customization';
import { escapeMarkdown, inlineCode } from '../../core/markdown';
import { isPromptOverFilesOutcome, type PromptOverFilesArgs } from '../../services/promptOverFiles';
import { Commands } from '../commands';
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
  if (text.startsWith('--files')) {
    stream.markdown(vscode.l10n.t('Name the prompt file before --files: {0}.', inlineCode('/prompt <name> --files <glob>')));
    return { result: {} };
  }
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
  const rest = name === '' ? '' : text.slice(name.length);
  const overFiles = filesOption(rest);
  if (overFiles.present) return { result: await runOverFiles(chosen, overFiles.glob, overFiles.rest, stream) };
  return promptShape(files, chosen, rest, stream, ui, token);
}

/**
 * `/prompt <name> --files <glob>`: the prompt file's body (and any words after the name) run over
 * every matching file as the same job as Run Prompt over Files (the batch feature's command: the
 * trust gate, then "now" or "batch" with both prices before anything is sent). The chat tells what it did.
 */
async function runOverFiles(chosen: Located<PromptFile>, glob: string, extra: string, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  if (glob === '') {
    stream.markdown(vscode.l10n.t('Give the files after --files, e.g. {0}.', inlineCode(`/prompt ${chosen.file.name} --files src/**/*.ts`)));
    return { errorDetails: { message: vscode.l10n.t('No glob after --files.') } };
  }
  const instruction = [chosen.file.body.trim(), extra.trim()].filter(Boolean).join('\n\n');
  if (instruction === '') {
    stream.markdown(vscode.l10n.t('The prompt file {0} has no instructions to run over the files.', `**${escapeMarkdown(chosen.file.name)}**`));
    return { errorDetails: { message: vscode.l10n.t('Empty prompt file.') } };
  }
  stream.progress(vscode.l10n.t('Preparing {0} over {1}…', chosen.file.name, glob));
  const args: PromptOverFilesArgs = { instruction, glob };
  const outcome: unknown = await vscode.commands.executeCommand(Commands.batchRunPromptOverFiles, args);
  if (!isPromptOverFilesOutcome(outcome) || outcome.kind === 'stopped') {
    stream.markdown(vscode.l10n.t('Stopped: nothing was sent.'));
    return { metadata: { promptOverFiles: 'stopped' } };
  }
  switch (outcome.kind) {
    case 'error':
      stream.markdown(outcome.message);
      return { errorDetails: { message: outcome.message }, metadata: { promptOverFiles: 'error', reason: outcome.reason } };
    case 'sent':
      stream.markdown(vscode.l10n.t('Sent {0} over {1} files as a batch (half price, results within 24 h). The Activities view follows it; its results open as one review of every file.', `**${escapeMarkdown(chosen.file.name)}**`, outcome.files));
      stream.button({ command: Commands.activitiesShow, title: vscode.l10n.t('Show Activities') });
      return { metadata: { promptOverFiles: 'sent', jobId: outcome.jobId } };
    case 'reviewed': {
      const r = outcome.review;
      stream.markdown(vscode.l10n.t('{0} over the files: {1} changed, {2} left as they were.', `**${escapeMarkdown(chosen.file.name)}**`, r.applied.length, r.rejected.length + r.unchanged.length));
      if (r.changedSinceSent.length > 0) stream.markdown(`\n\n${vscode.l10n.t('Changed since sent, not overwritten: {0}.', r.changedSinceSent.map((l) => inlineCode(l)).join(', '))}`);
      return { metadata: { promptOverFiles: 'reviewed' } };
    }
  }
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
