import * as vscode from 'vscode';
import { parseCapabilityOverrides, type CapabilityOverrides } from '../core/inference/models/overrides';

/** `stratus.models.overrides`, validated; read on every listing so a change applies without a refetch. */
export function readCapabilityOverrides(): CapabilityOverrides {
  return parseCapabilityOverrides(vscode.workspace.getConfiguration('stratus').get<unknown>('models.overrides', {})).table;
}
