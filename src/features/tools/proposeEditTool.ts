import * as vscode from 'vscode';
import { hiddenCharacters } from '../../core/agent/hiddenText';
import { sensitivePathReason } from '../../core/agent/sensitivePaths';
import { codeFence, escapeMarkdown } from '../../core/markdown';
import { unrecorded, type RecordChange } from '../../services/turnCheckpoints';
import { EditPreviews } from './editPreviews';
import { resolveWorkspacePath, textResult, ToolFailure, type WorkspaceFile } from '../../platform/toolWorkspace';
import { judgeWriteTarget } from '../../platform/writeTargetJudge';
import { stratusConfiguration } from '../../platform/settings';

interface ProposeEditInput { path: string; oldText: string; newText: string }

/** Most characters (old + new text) shown in the confirmation itself; longer edits open a diff editor. */
export const MAX_INLINE_EDIT_CHARS = 10_000;

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Application scope: a workspace's settings cannot turn the review preview off. */
function editPreviewSetting(): boolean {
  return stratusConfiguration('stratus').get<unknown>('tools.editPreview', true) !== false;
}

/** Why writing to this path needs a warning: the path as given, or where it lands (the one judge). */
async function sensitivity(input: string, file: WorkspaceFile | undefined): Promise<string | undefined> {
  return sensitivePathReason(input) ?? (file ? (await judgeWriteTarget(file)).sensitive : undefined);
}

export class ProposeEditTool implements vscode.LanguageModelTool<ProposeEditInput> {
  constructor(
    private readonly previews: EditPreviews = new EditPreviews(),
    /** Records the change in the running turn's checkpoint. */
    private readonly recordChange: RecordChange = unrecorded,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ProposeEditInput>): Promise<vscode.PreparedToolInvocation> {
    const input = String(options.input.path ?? '');
    const oldText = typeof options.input.oldText === 'string' ? options.input.oldText : '';
    const newText = typeof options.input.newText === 'string' ? options.input.newText : '';
    const file = await resolveWorkspacePath(input).catch(() => undefined);
    const shownPath = escapeMarkdown(file?.relative || input);
    const creating = !oldText;
    const parts: string[] = [];
    const sensitive = await sensitivity(input, file);
    if (sensitive) parts.push(`⚠️ **${vscode.l10n.t('Warning: {0} can run code.', shownPath)}** ${vscode.l10n.t('Writing it matters because {0}. Read every line before you allow it.', escapeMarkdown(sensitive))}`);
    const hidden = hiddenCharacters(oldText + newText);
    if (hidden.length > 0) parts.push(`⚠️ **${vscode.l10n.t('The text holds characters that do not show: {0}.', hidden.join(', '))}** ${vscode.l10n.t('They can make code read differently from what runs.')}`);
    const total = oldText.length + newText.length;
    if (total <= MAX_INLINE_EDIT_CHARS) {
      parts.push(
        creating
          ? `${vscode.l10n.t('Create **{0}** with:', shownPath)}\n\n${codeFence(newText)}`
          : `${vscode.l10n.t('In **{0}**, replace:', shownPath)}\n\n${codeFence(oldText)}\n\n${vscode.l10n.t('with:')}\n\n${codeFence(newText)}`,
      );
    } else {
      // Too long for a confirmation message: shown whole in a diff editor before the question.
      const title = vscode.l10n.t('Proposed by @stratus: {0}', file?.relative || input);
      const opened = await this.previews.show(file?.relative || input, oldText, newText, title);
      parts.push(
        (creating ? vscode.l10n.t('Create **{0}** ({1} characters).', shownPath, newText.length) : vscode.l10n.t('In **{0}**, replace {1} characters with {2} characters.', shownPath, oldText.length, newText.length)) +
          ' ' +
          (opened
            ? vscode.l10n.t('The text is too long to show here: it is open in full in the editor tab "{0}". Review it there before you allow it.', escapeMarkdown(title))
            : vscode.l10n.t('The text is too long to show here, and the editor could not show it: the refactor preview will show it in full before anything is written.')),
      );
    }
    return {
      invocationMessage: creating ? vscode.l10n.t('Creating {0}', input) : vscode.l10n.t('Editing {0}', input),
      confirmationMessages: { title: creating ? vscode.l10n.t('Create a file?') : vscode.l10n.t('Apply an edit?'), message: new vscode.MarkdownString(parts.join('\n\n')) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ProposeEditInput>): Promise<vscode.LanguageModelToolResult> {
    const { oldText, newText } = options.input;
    if (typeof oldText !== 'string' || typeof newText !== 'string') throw new ToolFailure('oldText and newText must be strings.');
    const input = String(options.input.path ?? '');
    const file = await resolveWorkspacePath(input);
    // VS Code's refactor preview as a second look: when the user wants it, and always for files
    // that run code and for text too long to have been read in the confirmation.
    const review = editPreviewSetting() || (await sensitivity(input, file)) !== undefined || oldText.length + newText.length > MAX_INLINE_EDIT_CHARS;
    const edit = new vscode.WorkspaceEdit();
    const metadata: vscode.WorkspaceEditEntryMetadata = { label: `@stratus: ${file.relative}`, needsConfirmation: review };
    if (!oldText) {
      if (file.exists) throw new ToolFailure(`"${file.relative}" already exists; to change it, give oldText copied from the file.`);
      // A new file is refused where stratus_createFile refuses one: ignored where it lands.
      const { ignored } = await judgeWriteTarget(file);
      if (ignored) throw new ToolFailure(`"${file.relative}" is not created because ${ignored}.`);
      edit.createFile(file.uri, { ignoreIfExists: false, contents: new TextEncoder().encode(newText) }, metadata);
    } else {
      if (!file.exists) throw new ToolFailure(`"${file.relative}" does not exist. Use an empty oldText to create it, or stratus_listFiles to find the right path.`);
      const doc = await vscode.workspace.openTextDocument(file.uri);
      const text = doc.getText();
      const normalizedOld = doc.eol === vscode.EndOfLine.CRLF ? oldText.replace(/\r?\n/g, '\r\n') : oldText;
      const count = occurrences(text, normalizedOld);
      if (count === 0) throw new ToolFailure(`oldText was not found in "${file.relative}". Read the file again (stratus_readFile) and copy the text exactly, whitespace included.`);
      if (count > 1) throw new ToolFailure(`oldText occurs ${count} times in "${file.relative}"; include more surrounding lines so it is unique.`);
      const start = doc.positionAt(text.indexOf(normalizedOld));
      const end = doc.positionAt(text.indexOf(normalizedOld) + normalizedOld.length);
      edit.replace(file.uri, new vscode.Range(start, end), newText, metadata);
    }
    const applied = await this.recordChange(file.uri, () => vscode.workspace.applyEdit(edit, { isRefactoring: true }));
    if (!applied) return textResult(`The edit to ${file.relative} was not applied: the user discarded it in the review, or the file changed meanwhile. Nothing was changed.`);
    return textResult(oldText ? `The edit to ${file.relative} was applied. It is not saved yet; the user can review it, then save or undo.` : `${file.relative} was created.`);
  }
}
