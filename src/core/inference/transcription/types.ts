import type { ResponseMeta } from '../shared/meta';

export interface TranscriptionRequest {
  /** Audio bytes (wav, mp3, m4a). */
  file: Uint8Array;
  /** File name sent with the bytes; its extension tells the server the format. */
  filename: string;
  /** MIME type of the file; default from the extension. */
  contentType?: string;
  /** Optional per the field notes. */
  model?: string;
  /** ISO 639-1 code; automatic detection when omitted. */
  language?: string;
  /** Context or specific words to improve accuracy. */
  initial_prompt?: string;
  /** `transcribe` (default) or `translate` (to English). */
  task?: 'transcribe' | 'translate';
}

export interface TranscriptionSegment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number | undefined;
  avgLogprob: number | undefined;
  compressionRatio: number | undefined;
  noSpeechProb: number | undefined;
}

export interface TranscriptionResult {
  text: string;
  language: string | undefined;
  segments: TranscriptionSegment[];
  /** Audio length in seconds (`duration`, else the end of the last segment): billed per minute. */
  durationSeconds: number | undefined;
  meta: ResponseMeta;
}
