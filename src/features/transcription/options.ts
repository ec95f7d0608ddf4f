import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/inference/models/types';
import { findLanguage, LANGUAGES, languageLabel } from '../../core/inference/transcription/languages';
import type { TranscriptionOptionsChoice } from './results';

type Step = 'start-transcribe' | 'start-translate' | 'model' | 'language' | 'prompt' | 'temperature';
interface StepItem extends vscode.QuickPickItem {
  step?: Step;
}

/** Speech models first (by kind), the chosen one marked. */
export function speechModels(models: readonly ModelInfo[]): ModelInfo[] {
  return models.filter((m) => m.kind === 'speech');
}

/**
 * One quick pick that starts at once with the shown options (Enter), or lets the user change
 * model, language, initial prompt or temperature first. Resolves undefined when dismissed.
 */
export async function chooseOptions(
  title: string,
  initial: TranscriptionOptionsChoice,
  listModels: () => Promise<ModelInfo[]>,
): Promise<TranscriptionOptionsChoice | undefined> {
  const options = { ...initial };
  for (;;) {
    const items: StepItem[] = [
      { label: `$(play) ${vscode.l10n.t('Transcribe')}`, description: vscode.l10n.t('in the spoken language'), step: 'start-transcribe' },
      { label: `$(globe) ${vscode.l10n.t('Translate to English')}`, description: vscode.l10n.t('speech in any language, text in English'), step: 'start-translate' },
      { label: vscode.l10n.t('Options'), kind: vscode.QuickPickItemKind.Separator },
      { label: vscode.l10n.t('Model: {0}', options.model ?? vscode.l10n.t('first speech model')), description: vscode.l10n.t('change…'), step: 'model' },
      { label: vscode.l10n.t('Language: {0}', languageLabel(options.language)), description: vscode.l10n.t('change…'), step: 'language' },
      { label: vscode.l10n.t('Initial prompt: {0}', options.prompt ?? vscode.l10n.t('none')), description: vscode.l10n.t('names and jargon to expect…'), step: 'prompt' },
      { label: vscode.l10n.t('Temperature: {0}', options.temperature ?? vscode.l10n.t('service default')), description: vscode.l10n.t('change…'), step: 'temperature' },
    ];
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Enter starts with these options; pick an option to change it') });
    if (!picked?.step) return undefined;
    switch (picked.step) {
      case 'start-transcribe':
        return { ...options, task: 'transcribe' };
      case 'start-translate':
        return { ...options, task: 'translate' };
      case 'model': {
        const models = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stratus: listing models…') }, () => listModels());
        const speech = speechModels(models);
        const choices: vscode.QuickPickItem[] = (speech.length > 0 ? speech : models).map((m) => ({ label: m.id, description: [m.kind, m.id === options.model ? vscode.l10n.t('current') : undefined].filter(Boolean).join(' · ') }));
        if (speech.length === 0) void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: the service lists no speech model (by name); every model is offered. Set its kind with stratus.models.kindOverrides.'));
        const model = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t('Speech model'), placeHolder: vscode.l10n.t('Model that transcribes the audio') });
        if (model) options.model = model.label;
        break;
      }
      case 'language': {
        const choices: vscode.QuickPickItem[] = [
          { label: vscode.l10n.t('Automatic'), description: vscode.l10n.t('detected from the audio') },
          ...LANGUAGES.map((l) => ({ label: l.name, description: l.code })),
        ];
        const language = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t('Spoken language'), placeHolder: vscode.l10n.t('Type a name or an ISO 639-1 code'), matchOnDescription: true });
        if (language) options.language = language.description && findLanguage(language.description) ? language.description : undefined;
        break;
      }
      case 'prompt': {
        const prompt = await vscode.window.showInputBox({ title: vscode.l10n.t('Initial prompt'), prompt: vscode.l10n.t('Names, jargon or context the speech contains (optional)'), value: options.prompt ?? '' });
        if (prompt !== undefined) options.prompt = prompt.trim() === '' ? undefined : prompt.trim();
        break;
      }
      case 'temperature': {
        const value = await vscode.window.showInputBox({
          title: vscode.l10n.t('Temperature'),
          prompt: vscode.l10n.t('From 0 (most likely words) to 1; empty for the service default'),
          value: options.temperature === undefined ? '' : String(options.temperature),
          validateInput: (text) => (text.trim() === '' || (Number.isFinite(Number(text)) && Number(text) >= 0 && Number(text) <= 1) ? undefined : vscode.l10n.t('A number from 0 to 1, or empty')),
        });
        if (value !== undefined) options.temperature = value.trim() === '' ? undefined : Number(value);
        break;
      }
    }
  }
}
