import type { InferenceClient } from '../../core/inference/client';
import type { TranscriptionOptions, TranscriptionRequest, TranscriptionResult } from '../../core/inference/transcription/types';
import type { Logger } from '../../core/log';
import { formatBytes } from '../../core/transcription/errors';
import { UploadProgress, type ProgressStep } from '../../core/transcription/progress';
import type { TranscriptionOptionsChoice } from './results';

/** The audio to send: a streaming Blob from a probed file, or attached bytes. */
export interface AudioSource {
  readonly fileName: string;
  readonly size: number;
  readonly body: Blob | Uint8Array;
  readonly mimeType: string;
  readonly durationSeconds: number | undefined;
}

/**
 * Uploads the audio with the chosen options, reporting "uploading n%" then "waiting for the
 * transcription"; `signal` aborts the HTTP request itself.
 */
export async function runTranscription(
  client: InferenceClient,
  source: AudioSource,
  options: TranscriptionOptionsChoice,
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
  const result = await client.transcribe(request, callOptions);
  progress.waitingForResult();
  logger.info(`Transcribed ${source.fileName}: ${result.segments.length} segment(s), ${result.durationSeconds?.toFixed(1) ?? '?'} s of audio.`);
  return result;
}
