import { ApiError, isStratusError, NotFoundError, TimeoutError, ValidationError } from '../../errors';
import { presentError, type ErrorAction } from '../../presentError';
import { AUDIO_FORMATS, CONTRACT_FORMATS, type AudioFormat } from './format';

export type AudioFileProblem = 'not_found' | 'not_a_file' | 'unreadable' | 'empty' | 'too_large' | 'unsupported_format' | 'changed';

/**
 * An audio file refused before anything is uploaded. A ValidationError on `file`, so generic
 * edges still show it; the transcription presenter reads `problem` and the figures.
 */
export class AudioFileError extends ValidationError {
  constructor(
    message: string,
    readonly problem: AudioFileProblem,
    readonly details: {
      fileName: string;
      size?: number | undefined;
      limitBytes?: number | undefined;
      /** What the content looks like, for `unsupported_format` ("text", "a PNG image"). */
      content?: string | undefined;
      /** System error code for `unreadable` (EACCES, EISDIR...). */
      code?: string | undefined;
    },
  ) {
    super(message, 'file');
    this.name = 'AudioFileError';
  }
}

/** What the transcription edge can offer next to an error. */
export type TranscriptionAction =
  | 'setApiKey'
  | 'openSettings'
  | 'openSizeSetting'
  | 'pickSpeechModel'
  | 'changeOptions'
  | 'retry'
  | 'showLog'
  | 'showUsage';

export interface PresentedTranscriptionError {
  readonly message: string;
  readonly actions: readonly TranscriptionAction[];
  readonly cancelled: boolean;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

const FORMAT_LIST = AUDIO_FORMATS.join(', ');

function generic(action: ErrorAction): TranscriptionAction {
  switch (action) {
    case 'pickModel':
      return 'pickSpeechModel';
    case 'signIn':
      return 'openSettings';
    default:
      return action;
  }
}

/**
 * Messages for a failed transcription: local file problems, the service's refusals of the audio
 * or an option, then everything else through the shared presenter. Switches on types and fields,
 * never on message text.
 */
export function presentTranscriptionError(error: unknown, context: { fileName: string; format?: AudioFormat | undefined }, now?: number): PresentedTranscriptionError {
  const plain = (message: string, actions: TranscriptionAction[]): PresentedTranscriptionError => ({ message, actions, cancelled: false });
  const name = context.fileName;
  if (error instanceof AudioFileError) {
    const d = error.details;
    switch (error.problem) {
      case 'not_found':
        return plain(`${name} does not exist (it may have been moved or deleted).`, []);
      case 'not_a_file':
        return plain(`${name} is not a file: pick an audio file (${FORMAT_LIST}).`, []);
      case 'unreadable':
        return plain(`Cannot read ${name}${d.code ? ` (${d.code})` : ''}: check that the file is readable.`, ['showLog']);
      case 'empty':
        return plain(`${name} is empty (0 bytes): there is nothing to transcribe.`, []);
      case 'too_large':
        return plain(
          `${name} is ${formatBytes(d.size ?? 0)}, over the ${formatBytes(d.limitBytes ?? 0)} upload limit (stratus.transcription.maxFileSizeMB). Split or compress the audio, or raise the limit if the service accepts larger files.`,
          ['openSizeSetting'],
        );
      case 'changed':
        return plain(`${name} changed on disk while it was being uploaded, so the upload stopped. Transcribe it again once it is completely written.`, ['retry']);
      case 'unsupported_format':
        return plain(
          `${name} is not an audio file Stratus can send: its content is ${d.content ?? 'not recognised'} (checked by content, not by the extension). Supported: ${FORMAT_LIST}.`,
          [],
        );
    }
  }
  if (isStratusError(error)) {
    if (error instanceof NotFoundError && error.isModelNotFound) {
      return plain('The speech model is not available on this service (404 model_not_found). Pick another speech model.', ['pickSpeechModel']);
    }
    if (error instanceof ApiError && error.kind === 'api' && error.status === 413) {
      return plain(`The service refused ${name} as too large (413). Split or compress the audio, and lower stratus.transcription.maxFileSizeMB to match the service.`, ['openSizeSetting', 'showLog']);
    }
    const detail = error.message.replace(/[.\s]+$/, '');
    if (error instanceof ApiError && error.kind === 'api' && (error.status === 400 || error.status === 415 || error.status === 422)) {
      const param = error.param;
      if (param === 'file' || param === undefined || error.status === 415) {
        const risky = context.format !== undefined && !CONTRACT_FORMATS.includes(context.format);
        const hint = risky
          ? ` The service may not accept ${context.format} audio: convert it to ${CONTRACT_FORMATS.join(', ')} and retry.`
          : ' Check the file, or convert it to another format.';
        return plain(`The service did not accept the audio in ${name} (${error.status}): ${detail}.${hint}`, ['showLog']);
      }
      if (param === 'model') {
        return plain(`The service refused the speech model (${error.status}): ${detail}. Pick a speech model.`, ['pickSpeechModel']);
      }
      return plain(`The service refused the option \`${param}\` (${error.status}): ${detail}. Change the options and retry.`, ['changeOptions', 'showLog']);
    }
    if (error instanceof ValidationError && error.param !== 'file' && !error.param.startsWith('stratus.')) {
      return plain(`Invalid option \`${error.param}\`: ${detail}.`, ['changeOptions']);
    }
    if (error instanceof TimeoutError && error.phase === 'first_byte') {
      const minutes = error.timeoutMs !== undefined ? ` within ${Math.round(error.timeoutMs / 60_000)} min` : '';
      return plain(`The service did not finish transcribing ${name}${minutes}. Retry, or split the audio into shorter files.`, ['retry', 'showLog']);
    }
    if (error.kind === 'outcome_unknown') {
      return plain(`The connection broke while ${name} was being transcribed: the service may have processed (and billed) it, but no result arrived. Retry to transcribe it again.`, ['retry', 'showLog']);
    }
  }
  const shared = presentError(error, now);
  return { message: shared.message, actions: [...new Set(shared.actions.map(generic))], cancelled: shared.cancelled };
}
