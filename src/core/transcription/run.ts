import { isStratusError } from '../errors';
import type { InferenceClient } from '../inference/client';
import type { TranscriptionOptions, TranscriptionRequest, TranscriptionResult } from '../inference/transcription/types';
import type { Logger } from '../log';
import type { TranscriptionChoice } from './choice';
import { AudioFileError, formatBytes } from './errors';
import { UploadProgress, type ProgressStep } from './progress';

/** The audio to send: a streaming Blob from a probed file, or attached bytes. */
export interface AudioSource {
  readonly fileName: string;
  readonly size: number;
  readonly body: Blob | Uint8Array;
  readonly mimeType: string;
  readonly durationSeconds: number | undefined;
  /** For a file: whether it changed on disk since it was checked (a failed read is then explained). */
  changedSinceProbe?(): Promise<boolean>;
}

/**
 * Uploads the audio with the chosen options, reporting "uploading n%" then "waiting for the
 * transcription"; `signal` aborts the HTTP request itself.
 */
export async function runTranscription(
  client: InferenceClient,
  source: AudioSource,
  options: TranscriptionChoice,
  report: (step: ProgressStep) => void,
  signal: AbortSignal,
  logger: Logger,
): Promise<TranscriptionResult> {
  const progress = new UploadProgress(source.size, report, source.fileName);
  progress.start();
  const request: TranscriptionRequest = {
    file: source.body,
    filename: source.fileName,
    contentType: source.mimeType,
    task: options.task,
    ...(options.model ? { model: options.model } : {}),
    ...(options.language ? { language: options.language } : {}),
    ...(options.prompt ? { initial_prompt: options.prompt } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(source.durationSeconds !== undefined ? { knownDurationSeconds: source.durationSeconds } : {}),
  };
  const callOptions: TranscriptionOptions = { signal, onUploadProgress: (sent) => progress.sent(sent) };
  logger.info(`Transcribing ${source.fileName} (${formatBytes(source.size)}, ${options.task}, model ${options.model ?? 'service default'}, language ${options.language ?? 'automatic'}).`);
  let result: TranscriptionResult;
  try {
    result = await client.transcribe(request, callOptions);
  } catch (error) {
    // A file-backed Blob refuses to be read once the file changed: say that, not "network".
    if (isStratusError(error) && (error.kind === 'network' || error.kind === 'outcome_unknown') && (await source.changedSinceProbe?.().catch(() => false))) {
      throw new AudioFileError(`${source.fileName} changed while it was uploaded`, 'changed', { fileName: source.fileName, size: source.size });
    }
    throw error;
  }
  progress.waitingForResult();
  logger.info(`Transcribed ${source.fileName}: ${result.segments.length} segment(s), ${result.durationSeconds?.toFixed(1) ?? '?'} s of audio.`);
  return result;
}
