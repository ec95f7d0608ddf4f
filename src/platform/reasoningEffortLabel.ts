import * as vscode from 'vscode';
import { effortsFor } from '../core/inference/models/reasoningEffort';
import { reasoningEffortOf, reasoningMark } from './modelOverrides';

/** How a model's reasoning effort reads in the chat and the status bar ("effort high"); undefined when none is set. */
export function effortLabel(modelId: string): string | undefined {
  const effort = reasoningEffortOf(modelId);
  if (effort === undefined || effortsFor(modelId, reasoningMark(modelId)).length === 0) return undefined;
  return effort === 'off' ? vscode.l10n.t('thinking off') : vscode.l10n.t('effort {0}', effort);
}
