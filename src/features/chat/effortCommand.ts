import * as vscode from 'vscode';
import { effortsFor, isReasoningEffort, type ReasoningEffort } from '../../core/inference/models/reasoningEffort';
import { reasoningEffortOf, reasoningMark, setReasoningEffort } from '../../platform/modelOverrides';

/**
 * `@stratus /model high` (or off, low, medium, default): sets the reasoning effort of the model in
 * use without picking another one. Returns false when the prompt is not an effort.
 */
export async function effortFromPrompt(prompt: string, modelId: string, stream: vscode.ChatResponseStream): Promise<boolean> {
  const word = prompt.trim().toLowerCase();
  if (word !== 'default' && !isReasoningEffort(word)) return false;
  const choices = effortsFor(modelId, reasoningMark(modelId));
  if (word !== 'default' && !choices.includes(word)) {
    stream.markdown(choices.length === 0
      ? vscode.l10n.t('**{0}** takes no reasoning effort: it reasons its own way.', modelId)
      : vscode.l10n.t('**{0}** takes these efforts: {1}.', modelId, choices.join(', ')));
    return true;
  }
  await setReasoningEffort(modelId, word === 'default' ? undefined : word);
  stream.markdown(word === 'default'
    ? vscode.l10n.t('**{0}** now uses its default reasoning effort.', modelId)
    : vscode.l10n.t('**{0}** now uses reasoning effort **{1}**.', modelId, word));
  return true;
}

/** After `/model` picked a model that takes an effort: asks which one (Escape keeps it as it is). */
export async function pickEffort(modelId: string): Promise<ReasoningEffort | 'default' | undefined> {
  const choices = effortsFor(modelId, reasoningMark(modelId));
  if (choices.length === 0) return undefined;
  const current = reasoningEffortOf(modelId);
  const items = [
    { label: vscode.l10n.t('Model default'), value: 'default' as const, picked: current === undefined },
    ...choices.map((effort) => ({ label: effort, value: effort, picked: current === effort })),
  ];
  const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Reasoning effort for {0}', modelId), placeHolder: current ?? vscode.l10n.t('Model default') });
  if (!chosen) return undefined;
  await setReasoningEffort(modelId, chosen.value === 'default' ? undefined : chosen.value);
  return chosen.value;
}
