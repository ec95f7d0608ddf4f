import { isStratusError } from '../../errors';
import type { InferenceClient } from '../api';
import type { TranscriptionOptions, TranscriptionRequest, TranscriptionResult } from './types';
import type { Logger } from '../../log';
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
  /** For a file: calls back when it is written during the upload (the upload is then stopped). */
  watchChanges?(onChange: () => void): { dispose(): void };
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
  // A file written during the upload cannot be read to the end, and an HTTP engine may then wait
  // for the rest of the body forever: stop the request as soon as the file changes, unless every
  // byte is already out (a change after that does not matter).
  const changed = new AbortController();
  const watcher = source.watchChanges?.(() => {
    if (progress.isWaiting || changed.signal.aborted) return;
    void (source.changedSinceProbe?.() ?? Promise.resolve(true)).then(
      (yes) => {
        if (yes && !progress.isWaiting) changed.abort();
      },
      () => undefined,
    );
  });
  const changedError = (): AudioFileError => new AudioFileError(`${source.fileName} changed while it was uploaded`, 'changed', { fileName: source.fileName, size: source.size });
  const callOptions: TranscriptionOptions = { signal: AbortSignal.any([signal, changed.signal]), onUploadProgress: (sent) => progress.sent(sent) };
  logger.info(`Transcribing ${source.fileName} (${formatBytes(source.size)}, ${options.task}, model ${options.model ?? 'service default'}, language ${options.language ?? 'automatic'}).`);
  let result: TranscriptionResult;
  try {
    if (await source.changedSinceProbe?.().catch(() => false)) throw changedError();
    result = await client.transcribe(request, callOptions);
  } catch (error) {
    if (error instanceof AudioFileError) throw error;
    if (changed.signal.aborted && !signal.aborted) throw changedError();
    // A file-backed Blob refuses to be read once the file changed: say that, not "network".
    if (isStratusError(error) && (error.kind === 'network' || error.kind === 'outcome_unknown') && (await source.changedSinceProbe?.().catch(() => false))) {
      throw changedError();
    }
    throw error;
  } finally {
    watcher?.dispose();
  }
  progress.waitingForResult();
  logger.info(`Transcribed ${source.fileName}: ${result.segments.length} segment(s), ${result.durationSeconds?.toFixed(1) ?? '?'} s of audio.`);
  return result;
}
