import * as vscode from 'vscode';
import { hiddenCharacters } from '../../core/agent/hiddenText';
import { sensitivePathReason } from '../../core/agent/sensitivePaths';
import { codeFence, escapeMarkdown } from '../../core/markdown';
import { unrecorded, type RecordChange } from '../../services/turnCheckpoints';
import { EditPreviews } from './editPreviews';
import { MAX_INLINE_EDIT_CHARS } from './proposeEditTool';
import { resolveWorkspacePath, textResult, ToolFailure, type WorkspaceFile } from '../../platform/toolWorkspace';
import { judgeWriteTarget } from '../../platform/writeTargetJudge';

interface CreateFileInput { path: string; content: string }

/** Why creating the file is refused, or undefined; and why writing it needs a warning, judged where it lands. */
async function judge(file: WorkspaceFile): Promise<{ refused: string | undefined; sensitive: string | undefined }> {
  if (file.exists) return { refused: `"${file.relative}" already exists; stratus_createFile only creates new files. Use stratus_proposeEdit to change it.`, sensitive: sensitivePathReason(file.relative) };
  const { ignored, sensitive } = await judgeWriteTarget(file);
  return { refused: ignored ? `"${file.relative}" is not created because ${ignored}.` : undefined, sensitive };
}

/** `stratus_createFile`: a new file with the given content, after a confirmation that shows both. */
export class CreateFileTool implements vscode.LanguageModelTool<CreateFileInput> {
  constructor(
    /** Records the change in the running turn's checkpoint. */
    private readonly recordChange: RecordChange = unrecorded,
    private readonly previews: EditPreviews = new EditPreviews(),
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<CreateFileInput>): Promise<vscode.PreparedToolInvocation> {
    const input = String(options.input.path ?? '');
    const content = typeof options.input.content === 'string' ? options.input.content : '';
    let file: WorkspaceFile | undefined;
    let refused: string | undefined;
    // Before the path resolves (or when it cannot), the path as typed is all there is to judge.
    let sensitive = sensitivePathReason(input);
    try {
      file = await resolveWorkspacePath(input);
      ({ refused, sensitive } = await judge(file));
    } catch (error) {
      refused = error instanceof Error ? error.message : String(error);
    }
    const shownPath = escapeMarkdown(file?.relative || input);
    const size = new TextEncoder().encode(content).byteLength;
    const parts: string[] = [];
    if (refused) parts.push(`${vscode.l10n.t('It will be refused: {0}', escapeMarkdown(refused))}`);
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
    const { refused, sensitive } = await judge(file);
    if (refused) throw new ToolFailure(refused);
    const review = sensitive !== undefined || content.length > MAX_INLINE_EDIT_CHARS;
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(file.uri, { ignoreIfExists: false, overwrite: false, contents: new TextEncoder().encode(content) }, { label: `@stratus: ${file.relative}`, needsConfirmation: review });
    const applied = await this.recordChange(file.uri, () => vscode.workspace.applyEdit(edit, { isRefactoring: review }));
    if (!applied) return textResult(`${file.relative} was not created: the user discarded it in the review, or it appeared meanwhile. Nothing was changed.`);
    return textResult(`${file.relative} was created (${new TextEncoder().encode(content).byteLength} bytes).`);
  }
}
