import * as vscode from 'vscode';
import type { ContentPart } from '../../core/inference/chat/types';

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
}

/** Reads the request's attachments, reporting each used file as a reference in the response. */
export async function resolveReferences(references: readonly vscode.ChatPromptReference[], stream: vscode.ChatResponseStream): Promise<ResolvedReferences> {
  const context: string[] = [];
  const images: ContentPart[] = [];
  const problems: string[] = [];
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
          images.push({ type: 'image_url', image_url: { url: `data:${value.mimeType};base64,${Buffer.from(data).toString('base64')}` } });
        } else {
          problems.push(`${reference.id}: ${value.mimeType} attachments are not supported`);
        }
      } else if (typeof value === 'string') {
        context.push(value);
      }
    } catch (error) {
      problems.push(`${reference.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { context, images, problems };
}

function block(name: string, language: string, text: string): string {
  const cut = text.length > MAX_CONTEXT_CHARS;
  const body = cut ? `${text.slice(0, MAX_CONTEXT_CHARS)}\n… (cut: ${text.length - MAX_CONTEXT_CHARS} more characters)` : text;
  const fence = body.includes('```') ? '````' : '```';
  return `${name}:\n${fence}${language}\n${body}\n${fence}`;
}
