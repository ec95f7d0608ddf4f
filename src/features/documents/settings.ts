import type { ExtractMode } from '../../core/documents/types';
import { stratusConfiguration } from '../../platform/settings';

export interface DocumentSettings {
  /** OCR model id; empty: the first OCR model the catalogue lists. */
  readonly model: string;
  readonly maxBytes: number;
  readonly maxPages: number;
  /** OCR requests in flight at once. */
  readonly concurrency: number;
  readonly mode: ExtractMode;
}

export const DEFAULTS = { maxFileSizeMB: 50, maxPages: 30, concurrency: 4 } as const;

function positive(value: unknown, fallback: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(value, max) : fallback;
}

/** Reads `stratus.documents.*`; side-effect free, never cached. */
export function readDocumentSettings(): DocumentSettings {
  const config = stratusConfiguration('stratus.documents');
  const model = config.get<string>('model', '');
  return {
    model: typeof model === 'string' ? model.trim() : '',
    maxBytes: Math.floor(positive(config.get('maxFileSizeMB'), DEFAULTS.maxFileSizeMB, 1024) * 1024 * 1024),
    maxPages: Math.floor(positive(config.get('maxPages'), DEFAULTS.maxPages, 10_000)),
    concurrency: Math.floor(positive(config.get('concurrency'), DEFAULTS.concurrency, 16)),
    mode: config.get('mode') === 'ocrAll' ? 'ocrAll' : 'auto',
  };
}
