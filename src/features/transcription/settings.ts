import { stratusConfiguration } from '../../platform/settings';

export interface TranscriptionSettings {
  /** Upload cap in bytes (`stratus.transcription.maxFileSizeMB`). */
  readonly maxBytes: number;
  readonly maxFileSizeMB: number;
  /** Speech model id; empty: the first speech model the service lists. */
  readonly model: string;
  /** ISO 639-1 code; empty: automatic detection. */
  readonly language: string;
}

export const DEFAULT_MAX_FILE_SIZE_MB = 25;

/** Reads `stratus.transcription.*`; side-effect free, never cached. */
export function readTranscriptionSettings(): TranscriptionSettings {
  const config = stratusConfiguration('stratus.transcription');
  const raw = config.get<number>('maxFileSizeMB', DEFAULT_MAX_FILE_SIZE_MB);
  const maxFileSizeMB = typeof raw === 'number' && Number.isFinite(raw) && raw > 0 ? raw : DEFAULT_MAX_FILE_SIZE_MB;
  const model = config.get<string>('model', '');
  const language = config.get<string>('language', '');
  return {
    maxFileSizeMB,
    maxBytes: Math.floor(maxFileSizeMB * 1024 * 1024),
    model: typeof model === 'string' ? model.trim() : '',
    language: typeof language === 'string' ? language.trim().toLowerCase() : '',
  };
}
