import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/inference/models/types';
import type { Deps } from '../deps';

export interface OcrModel {
  readonly id: string;
  readonly maxModelLen: number | undefined;
  /** Not an OCR model (a vision chat model): results may be worse; said once to the user. */
  readonly fallback: boolean;
}

/**
 * The model that reads pages: the setting, else the first OCR model of the catalogue, else (after
 * asking, unless `interactive` is false) a vision chat model, with a note that results may be
 * worse. Undefined when there is none or the user declined.
 */
export async function pickOcrModel(deps: Deps, configured: string, interactive: boolean, signal?: AbortSignal): Promise<OcrModel | undefined> {
  const models: ModelInfo[] = await deps.inference.client().models.list({ signal });
  if (configured) {
    const found = models.find((m) => m.id === configured || m.aliases.includes(configured));
    return { id: found?.id ?? configured, maxModelLen: found?.maxModelLen, fallback: found !== undefined && found.kind !== 'ocr' };
  }
  const ocr = models.find((m) => m.kind === 'ocr');
  if (ocr) return { id: ocr.id, maxModelLen: ocr.maxModelLen, fallback: false };
  const vision = models.filter((m) => m.kind === 'vision');
  if (vision.length === 0) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: the service offers no OCR model and no vision model, so scanned pages cannot be read. Pages with a text layer can still be read.'));
    return undefined;
  }
  const first = vision[0];
  if (!interactive || !first) return first ? { id: first.id, maxModelLen: first.maxModelLen, fallback: true } : undefined;
  const picked = await vscode.window.showQuickPick(vision.map((m) => ({ label: m.id, description: vscode.l10n.t('vision chat model') })), {
    title: vscode.l10n.t('No OCR model is available'),
    placeHolder: vscode.l10n.t('Read the pages with a vision chat model instead? Results may be worse than with an OCR model.'),
  });
  const chosen = picked ? vision.find((m) => m.id === picked.label) : undefined;
  return chosen ? { id: chosen.id, maxModelLen: chosen.maxModelLen, fallback: true } : undefined;
}
