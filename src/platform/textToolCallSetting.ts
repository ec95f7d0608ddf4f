import * as vscode from 'vscode';
import { parseTextToolCallSetting, type TextToolCallSetting } from '../core/inference/chat/textToolCallPolicy';

/**
 * `stratus.models.textToolCalls` at user level only (application scope): whether a model's printed
 * text may become tool calls that act on the workspace is not a repository's choice.
 */
export function readTextToolCallSetting(): TextToolCallSetting {
  const inspected = vscode.workspace.getConfiguration('stratus').inspect<unknown>('models.textToolCalls');
  return parseTextToolCallSetting(inspected?.globalValue ?? inspected?.defaultValue ?? {});
}
