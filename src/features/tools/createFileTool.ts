import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { hiddenCharacters } from '../../core/agent/hiddenText';
import { sensitivePathReason } from '../../core/agent/sensitivePaths';
import { codeFence, escapeMarkdown } from '../../core/markdown';
import { enabledGlobs, PathFilter } from '../../core/workspace/ignoreRules';
import { EditPreviews } from './editPreviews';
import { MAX_INLINE_EDIT_CHARS } from './proposeEditTool';
import { resolveWorkspacePath, textResult, ToolFailure, type WorkspaceFile } from './workspace';

interface CreateFileInput { path: string; content: string }

/** Folders never written into, whatever the settings say. */
const ALWAYS_IGNORED = ['**/.git', '**/node_modules'];

/** Why `relative` (in `folder`) is ignored: `files.exclude`, `.git/`, `node_modules/`, a `.gitignore` on the way. */
export async function ignoredReason(folder: vscode.WorkspaceFolder, relative: string): Promise<string | undefined> {
  const excludes = enabledGlobs(vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude', {}));
  const filter = new PathFilter([...excludes, ...ALWAYS_IGNORED]);
  const parts = relative.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    const dir = parts.slice(0, i).join('/');
    const gitignore = await readFile(join(folder.uri.fsPath, ...parts.slice(0, i), '.gitignore'), 'utf8').catch(() => undefined);
    if (gitignore !== undefined) filter.addGitignore(dir, gitignore);
  }
  for (let i = 1; i <= parts.length; i++) {
    const why = filter.check(parts.slice(0, i).join('/'), i < parts.length);
    if (why === 'excluded') return `it is in a folder or matches a pattern excluded by files.exclude, or inside .git/ or node_modules/ (${parts.slice(0, i).join('/')})`;
    if (why === 'gitignored') return `it is ignored by a .gitignore (${parts.slice(0, i).join('/')})`;
  }
  return undefined;
}

/** Why creating the file is refused, or undefined. */
async function refusal(file: WorkspaceFile): Promise<string | undefined> {
  if (file.exists) return `"${file.relative}" already exists; stratus_createFile only creates new files. Use stratus_proposeEdit to change it.`;
  const folder = vscode.workspace.getWorkspaceFolder(file.uri);
  if (!folder) return `"${file.relative}" is not inside a workspace folder.`;
  const ignored = await ignoredReason(folder, file.relative);
  return ignored ? `"${file.relative}" is not created because ${ignored}.` : undefined;
}

export type BeforeChange = (uri: vscode.Uri) => Promise<void>;

/** `stratus_createFile`: a new file with the given content, after a confirmation that shows both. */
export class CreateFileTool implements vscode.LanguageModelTool<CreateFileInput> {
  constructor(
    private readonly beforeChange: BeforeChange = async () => undefined,
    private readonly previews: EditPreviews = new EditPreviews(),
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<CreateFileInput>): Promise<vscode.PreparedToolInvocation> {
    const input = String(options.input.path ?? '');
    const content = typeof options.input.content === 'string' ? options.input.content : '';
    let file: WorkspaceFile | undefined;
    let refused: string | undefined;
    try {
      file = await resolveWorkspacePath(input);
      refused = await refusal(file);
    } catch (error) {
      refused = error instanceof Error ? error.message : String(error);
    }
    const shownPath = escapeMarkdown(file?.relative || input);
    const size = new TextEncoder().encode(content).byteLength;
    const parts: string[] = [];
    if (refused) parts.push(`${vscode.l10n.t('It will be refused: {0}', escapeMarkdown(refused))}`);
    const sensitive = sensitivePathReason(file?.relative || input);
    if (sensitive) parts.push(`⚠️ **${vscode.l10n.t('Warning: {0} can run code.', shownPath)}** ${vscode.l10n.t('Writing it matters because {0}. Read every line before you allow it.', escapeMarkdown(sensitive))}`);
    const hidden = hiddenCharacters(content);
    if (hidden.length > 0) parts.push(`⚠️ **${vscode.l10n.t('The text holds characters that do not show: {0}.', hidden.join(', '))}** ${vscode.l10n.t('They can make code read differently from what runs.')}`);
    if (content.length <= MAX_INLINE_EDIT_CHARS) {
      parts.push(`${vscode.l10n.t('Create **{0}** ({1} bytes) with:', shownPath, size)}\n\n${codeFence(content)}`);
    } else {
      const title = vscode.l10n.t('Proposed by @stratus: {0}', file?.relative || input);
      const opened = await this.previews.show(file?.relative || input, '', content, title);
      parts.push(
        `${vscode.l10n.t('Create **{0}** ({1} bytes).', shownPath, size)} ${
          opened
            ? vscode.l10n.t('The text is too long to show here: it is open in full in the editor tab "{0}". Review it there before you allow it.', escapeMarkdown(title))
            : vscode.l10n.t('The text is too long to show here, and the editor could not show it: the refactor preview will show it in full before anything is written.')
        }`,
      );
    }
    return {
      invocationMessage: vscode.l10n.t('Creating {0}', input),
      confirmationMessages: { title: vscode.l10n.t('Create a file?'), message: new vscode.MarkdownString(parts.join('\n\n')) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<CreateFileInput>): Promise<vscode.LanguageModelToolResult> {
    const { content } = options.input;
    if (typeof content !== 'string') throw new ToolFailure('content must be a string (the whole text of the new file).');
    const file = await resolveWorkspacePath(options.input.path);
    const refused = await refusal(file);
    if (refused) throw new ToolFailure(refused);
    const review = sensitivePathReason(file.relative) !== undefined || content.length > MAX_INLINE_EDIT_CHARS;
    await this.beforeChange(file.uri);
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(file.uri, { ignoreIfExists: false, overwrite: false, contents: new TextEncoder().encode(content) }, { label: `@stratus: ${file.relative}`, needsConfirmation: review });
    const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: review });
    if (!applied) return textResult(`${file.relative} was not created: the user discarded it in the review, or it appeared meanwhile. Nothing was changed.`);
    return textResult(`${file.relative} was created (${new TextEncoder().encode(content).byteLength} bytes).`);
  }
}
