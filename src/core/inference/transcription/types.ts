import type { CallOptions } from '../shared/call';
import type { ResponseMeta } from '../shared/meta';

export interface TranscriptionRequest {
  /**
   * The audio: bytes, or a Blob. A file-backed Blob (`fs.openAsBlob(path, { type })`) is streamed
   * from disk on every attempt, never read whole into memory; its `type` is the part's MIME type.
   */
  file: Uint8Array | Blob;
  /** File name sent with the audio. */
  filename: string;
  /** MIME type of bytes (a Blob carries its own); default from the extension. */
  contentType?: string;
  /** Optional per the field notes. */
  model?: string;
  /** ISO 639-1 code; automatic detection when omitted. */
  language?: string;
  /** Context or specific words to improve accuracy. */
  initial_prompt?: string;
  /** `transcribe` (default) or `translate` (to English). */
  task?: 'transcribe' | 'translate';
  /** Sampling temperature, 0 to 1; omitted: the service's default. */
  temperature?: number;
  /**
   * Audio length the client read from the file header, if any: used for `durationSeconds` when
   * the service does not send `duration` (more exact than the last segment's end). Not sent.
   */
  knownDurationSeconds?: number;
}

export interface TranscriptionOptions extends CallOptions {
  /** Told how many bytes of the multipart body have been sent (upload progress). */
  onUploadProgress?: (sentBytes: number) => void;
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
  /**
   * Audio length in seconds, billed per started minute: the service's `duration`, else the
   * length the client read from the file header, else the end of the last segment.
   */
  durationSeconds: number | undefined;
  meta: ResponseMeta;
}
