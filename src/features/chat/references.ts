import * as vscode from 'vscode';
import { ImageBudget } from '../../core/inference/chat/images';
import type { ContentPart } from '../../core/inference/chat/types';
import type { Logger } from '../../core/log';

/** Attached files and selections are sent as context up to this size each; more is cut with a note. */
const MAX_CONTEXT_CHARS = 60_000;

/** Images arrive as binary references (`ChatReferenceBinaryData` in newer VS Code). */
interface BinaryLike { mimeType: string; data(): Thenable<Uint8Array> }
function isBinary(value: unknown): value is BinaryLike {
  return typeof value === 'object' && value !== null
    && typeof (value as { mimeType?: unknown }).mimeType === 'string'
    && typeof (value as { data?: unknown }).data === 'function';
}

export interface ResolvedReferences {
  /** Text blocks for the prompt (files, selections, strings). */
  readonly context: string[];
  /** Image parts (data URIs) for vision models. */
  readonly images: ContentPart[];
  /** Names of attachments that could not be read, with why. */
  readonly problems: string[];
  /** Images over the size caps, with why: the request is not sent with them. */
  readonly oversized: string[];
}

/** Reads the request's attachments, reporting each used file as a reference in the response. */
export async function resolveReferences(references: readonly vscode.ChatPromptReference[], stream: vscode.ChatResponseStream, logger: Logger): Promise<ResolvedReferences> {
  const context: string[] = [];
  const images: ContentPart[] = [];
  const problems: string[] = [];
  const oversized: string[] = [];
  const budget = new ImageBudget();
  for (const reference of references) {
    const value = reference.value;
    try {
      if (value instanceof vscode.Uri) {
        const document = await vscode.workspace.openTextDocument(value);
        context.push(block(vscode.workspace.asRelativePath(value), document.languageId, document.getText()));
        stream.reference(value);
      } else if (value instanceof vscode.Location) {
        const document = await vscode.workspace.openTextDocument(value.uri);
        const where = `${vscode.workspace.asRelativePath(value.uri)}:${value.range.start.line + 1}-${value.range.end.line + 1}`;
        context.push(block(where, document.languageId, document.getText(value.range)));
        stream.reference(value);
      } else if (isBinary(value)) {
        if (value.mimeType.startsWith('image/')) {
          const data = await value.data();
          const refused = budget.admit(reference.id, data.byteLength);
          if (refused) oversized.push(refused);
          else images.push({ type: 'image_url', image_url: { url: `data:${value.mimeType};base64,${Buffer.from(data).toString('base64')}` } });
        } else {
          problems.push(`${reference.id}: ${vscode.l10n.t('{0} attachments are not supported', value.mimeType)}`);
        }
      } else if (typeof value === 'string') {
        context.push(value);
      }
    } catch (error) {
      logger.warn(`Cannot read the attachment ${reference.id}`, error);
      problems.push(`${reference.id}: ${unreadable(error)}`);
    }
  }
  return { context, images, problems, oversized };
}

/** Why an attachment could not be read, from the typed file-system error code (the log has the details). */
function unreadable(error: unknown): string {
  if (error instanceof vscode.FileSystemError) {
    switch (error.code) {
      case 'FileNotFound':
        return vscode.l10n.t('the file does not exist');
      case 'NoPermissions':
        return vscode.l10n.t('no permission to read it');
      case 'FileIsADirectory':
        return vscode.l10n.t('it is a folder, not a file');
      case 'Unavailable':
        return vscode.l10n.t('its file system is unavailable');
    }
  }
  return vscode.l10n.t('it cannot be read as text (details in the Stratus log)');
}

function block(name: string, language: string, text: string): string {
  const cut = text.length > MAX_CONTEXT_CHARS;
  const body = cut ? `${text.slice(0, MAX_CONTEXT_CHARS)}\n… (cut: ${text.length - MAX_CONTEXT_CHARS} more characters)` : text;
  const fence = body.includes('```') ? '````' : '```';
  return `${name}:\n${fence}${language}\n${body}\n${fence}`;
}
