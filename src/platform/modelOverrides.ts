import * as vscode from 'vscode';
import { overrideFor, parseCapabilityOverrides, type CapabilityOverrides } from '../core/inference/models/overrides';
import { effortFor, parseEffortSetting, type EffortTable, type ReasoningEffort } from '../core/inference/models/reasoningEffort';
import { stratusConfiguration } from './settings';

/** `stratus.models.overrides`, validated; read on every listing so a change applies without a refetch. */
export function readCapabilityOverrides(): CapabilityOverrides {
  return parseCapabilityOverrides(stratusConfiguration('stratus').get<unknown>('models.overrides', {})).table;
}

/** The user's `reasoning` override of `modelId` (undefined: the family table decides). */
export function reasoningMark(modelId: string): boolean | undefined {
  return overrideFor(readCapabilityOverrides(), modelId).reasoning;
}

/** `stratus.models.reasoningEffort`, validated (id or glob to off/low/medium/high). */
export function readReasoningEfforts(): EffortTable {
  return parseEffortSetting(stratusConfiguration('stratus').get<unknown>('models.reasoningEffort', {}));
}

/** The effort for `modelId` (undefined: the model's own default). */
export function reasoningEffortOf(modelId: string): ReasoningEffort | undefined {
  return effortFor(readReasoningEfforts(), modelId);
}

/** Sets (or with `undefined` clears) the effort of one model id in the user's settings. */
export async function setReasoningEffort(modelId: string, effort: ReasoningEffort | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration('stratus');
  const current = { ...(config.inspect<Record<string, unknown>>('models.reasoningEffort')?.globalValue ?? {}) };
  if (effort === undefined) delete current[modelId];
  else current[modelId] = effort;
  await config.update('models.reasoningEffort', Object.keys(current).length > 0 ? current : undefined, vscode.ConfigurationTarget.Global);
}
