import type { Deps } from '../deps';
import { speechModels } from './options';
import type { TranscriptionOptionsChoice } from './results';
import { readTranscriptionSettings } from './settings';

/** Options the settings give, before the user changes any. */
export function defaultOptions(): TranscriptionOptionsChoice {
  const settings = readTranscriptionSettings();
  return { model: settings.model || undefined, language: settings.language || undefined, task: 'transcribe', prompt: undefined, temperature: undefined };
}

/** The speech model to use when none is chosen: the first the service lists, if any. */
export async function defaultSpeechModel(deps: Deps, signal?: AbortSignal): Promise<string | undefined> {
  const models = await deps.inference.client().models.list({ signal });
  return speechModels(models)[0]?.id;
}
