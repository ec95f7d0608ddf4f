import * as vscode from 'vscode';
import { parseToolCallingOverrides, type ToolCallingOverrides } from '../../core/inference/models/capabilities';

/** `stratus.models.toolCalling`: which model ids take tools, where the guess from the family is wrong. */
export function readToolCallingOverrides(): ToolCallingOverrides {
  return parseToolCallingOverrides(vscode.workspace.getConfiguration('stratus').get<unknown>('models.toolCalling', {}));
}
