import * as vscode from 'vscode';
import { fileLinks, inputArguments, promptInputs, resolveVariables, type PromptFile, type PromptInput, type VariableValues } from '../../core/agent/customization';
import { escapeMarkdown, inlineCode } from '../../core/markdown';
import type { TurnShape } from '../../platform/chatCommands';
import type { CustomizationFiles, Located } from '../../services/customizations';
import { ignoredWhereItLands } from '../../platform/workspaceIgnores';
import { maxFileBytes, readCapped, resolveWorkspacePath, ToolFailure } from '../../platform/toolWorkspace';
import { agentHeader, agentShape, bothFilters, isBuiltInMode, modeFilter, toolsFilter } from './agentShape';
import { findAgent } from './agentCommand';
import { frontMatterNote } from './problems';

/** How a prompt file asks the person (quick pick and input boxes; tests give answers instead). */
export interface PromptUi {
  pick(items: readonly Located<PromptFile>[]): Promise<Located<PromptFile> | undefined>;
  input(input: PromptInput, promptName: string): Promise<string | undefined>;
}

export const windowUi: PromptUi = {
  async pick(items) {
    const chosen = await vscode.window.showQuickPick(
      items.map((item) => ({ label: item.file.name, description: item.file.description ?? '', detail: item.folder ? vscode.workspace.asRelativePath(item.uri) : item.uri.fsPath, item })),
      { placeHolder: vscode.l10n.t('Pick a prompt file to run'), matchOnDescription: true },
    );
    return chosen?.item;
  },
  input: (input, promptName) =>
    Promise.resolve(vscode.window.showInputBox({ title: `${promptName}: ${input.name}`, prompt: input.placeholder ?? input.name, placeHolder: input.placeholder, ignoreFocusOut: true })),
};

/** The editor's selection and file, as the context variables of a prompt body. */
function editorValues(): Omit<VariableValues, 'inputs'> {
  const editor = vscode.window.activeTextEditor;
  // An editor outside every folder (an untitled document) still leaves the workspace's first folder.
  const folder = (editor ? vscode.workspace.getWorkspaceFolder(editor.document.uri) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
  const values: Record<string, string> = {};
  if (folder) {
    values.workspaceFolder = folder.uri.scheme === 'file' ? folder.uri.fsPath : folder.uri.toString();
    values.workspaceFolderBasename = folder.name;
  }
  if (editor) {
    const uri = editor.document.uri;
    values.file = uri.scheme === 'file' ? uri.fsPath : uri.toString();
    values.fileBasename = uri.path.split('/').pop() ?? '';
    values.fileDirname = vscode.Uri.joinPath(uri, '..').scheme === 'file' ? vscode.Uri.joinPath(uri, '..').fsPath : vscode.Uri.joinPath(uri, '..').toString();
    if (!editor.selection.isEmpty) values.selection = editor.document.getText(editor.selection);
  }
  return values;
}

/**
 * Why a linked file is not attached (localised), or undefined when it is. A read, so it takes the
 * doors of a read: the path resolved where it lands (inside a workspace folder), the ignore rules
 * there, then the confined reader; never the write-target judge (`.github/` workflows and
 * package.json are sensitive to write, not to read).
 */
async function notAttachable(uri: vscode.Uri): Promise<string | undefined> {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return vscode.l10n.t('outside the workspace');
  const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  try {
    const file = await resolveWorkspacePath(vscode.workspace.asRelativePath(uri, multi));
    const ignored = await ignoredWhereItLands(file);
    if (ignored) return vscode.l10n.t('ignored: {0}', ignored);
    if (!file.exists) return vscode.l10n.t('the file does not exist');
    const read = await readCapped(file.uri, maxFileBytes());
    if (read.binary) return vscode.l10n.t('a binary file');
    if (read.truncated) return vscode.l10n.t('larger than {0} bytes (setting stratus.tools.maxFileBytes)', maxFileBytes().toLocaleString('en'));
  } catch (error) {
    if (error instanceof ToolFailure) return error.message;
    throw error;
  }
  return undefined;
}

/** Where a link of a prompt file points: `/x` from its workspace folder's root, else from the file's folder. */
function linkTarget(prompt: Located<PromptFile>, target: string): vscode.Uri {
  const parts = target.split('/').filter((p) => p !== '');
  if (target.startsWith('/')) {
    const root = prompt.folder?.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    if (root) return vscode.Uri.joinPath(root, ...parts);
  }
  return vscode.Uri.joinPath(prompt.uri, '..', ...parts);
}

/**
 * The turn a prompt file runs: its body with the variables filled in (inputs from the chat line
 * `name=value`, else asked), the text after the arguments appended, its linked files attached
 * (those that cannot be, each with a line saying why), its model, its tools within its mode or
 * custom agent. A result instead when the person dismissed an input.
 */
export async function promptShape(files: CustomizationFiles, prompt: Located<PromptFile>, text: string, stream: vscode.ChatResponseStream, ui: PromptUi, token?: vscode.CancellationToken): Promise<TurnShape | { result: vscode.ChatResult }> {
  const { file } = prompt;
  stream.markdown(`_${vscode.l10n.t('Prompt file: {0}', `**${escapeMarkdown(file.name)}**`)}_\n\n`);
  stream.reference(prompt.uri);
  frontMatterNote(stream, file.problems, 'prompt');
  const declared = promptInputs(file.body);
  const args = inputArguments(text, declared.map((d) => d.name));
  const inputs = new Map(args.values);
  for (const input of declared) {
    if (inputs.has(input.name)) continue;
    const value = await ui.input(input, file.name);
    // Cancelled while the box was open: ask nothing more, send nothing.
    if (token?.isCancellationRequested) return { result: {} };
    if (value === undefined) {
      stream.markdown(vscode.l10n.t('Not run: no value was given for {0}.', `\`${input.name}\``));
      return { result: {} };
    }
    inputs.set(input.name, value);
  }
  const resolved = resolveVariables(file.body, { ...editorValues(), inputs });
  const emptyContext = resolved.empty.filter((e) => !e.startsWith('input:'));
  if (emptyContext.length > 0) stream.markdown(`> _${vscode.l10n.t('Empty in this prompt (no editor, selection or folder for them): {0}', emptyContext.map((e) => `\${${e}}`).join(', '))}_\n\n`);

  // Links are taken from the file as written, never from the values filled in.
  const attachments: vscode.Uri[] = [];
  for (const link of fileLinks(file.body)) {
    const uri = linkTarget(prompt, link.target);
    const why = files.trusted ? await notAttachable(uri) : vscode.l10n.t('this workspace is not trusted');
    if (why) stream.markdown(`> ${vscode.l10n.t('Not attached: {0} ({1})', inlineCode(link.target), escapeMarkdown(why))}\n\n`);
    else if (!attachments.some((a) => a.toString() === uri.toString())) attachments.push(uri);
  }

  const body = [resolved.text.trim(), args.rest].filter((t) => t !== '').join('\n\n');
  let agent: TurnShape = {};
  if (file.agent && !isBuiltInMode(file.agent)) {
    const found = findAgent((await files.agents()).items, file.agent);
    if (found) {
      agentHeader(stream, found.file.name);
      agent = agentShape(found);
    }
    else stream.markdown(`> _${vscode.l10n.t('The agent {0} named by this prompt file is not found: the default agent runs it.', `**${escapeMarkdown(file.agent)}**`)}_\n\n`);
  }
  const allowTool = bothFilters(bothFilters(modeFilter(file.agent), toolsFilter(file.tools)), agent.allowTool);
  const model = file.model ?? agent.model;
  return {
    ...agent,
    prompt: body,
    ...(allowTool ? { allowTool } : {}),
    ...(model ? { model } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
    metadata: { ...(agent.metadata ?? {}), promptFile: file.name },
  };
}
