import { MalformedResponseError, ValidationError } from '../../errors';
import type { HttpTransport } from '../../http/transport';
import { AUDIO_FORMATS, mimeTypeOf } from './format';
import type { MultipartField } from '../../http/types';
import { arr, isRecord, num, str } from '../../json';
import { responseMeta } from '../shared/meta';
import { optionalNumberInRange, optionalString, requireNonEmptyString } from '../shared/validate';
import type { TranscriptionOptions, TranscriptionRequest, TranscriptionResult, TranscriptionSegment } from './types';

export const TRANSCRIPTION_PATH = '/v1/audio/transcriptions';

/** Transcribing takes about as long as the audio; allow for it before the first byte. */
const TRANSCRIPTION_FIRST_BYTE_MS = 600_000;

function audioType(filename: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  const format = AUDIO_FORMATS.find((f) => f === ext);
  return format ? mimeTypeOf(format) : 'application/octet-stream';
}

/**
 * Longest audio time the service could report, in seconds (a week): a larger, negative or
 * non-numeric time is no time, so subtitles and the billed duration stay real.
 */
export const MAX_AUDIO_SECONDS = 7 * 86_400;

function audioSeconds(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n >= 0 && n <= MAX_AUDIO_SECONDS ? n : undefined;
}

function segment(raw: unknown, position: number): TranscriptionSegment | undefined {
  if (!isRecord(raw)) return undefined;
  const start = audioSeconds(raw.start) ?? 0;
  return {
    id: num(raw.id) ?? position,
    seek: num(raw.seek) ?? 0,
    start,
    // A cue never ends before it starts; a missing end makes it a point in time.
    end: Math.max(start, audioSeconds(raw.end) ?? start),
    text: str(raw.text) ?? '',
    tokens: arr(raw.tokens).filter((t): t is number => typeof t === 'number'),
    temperature: num(raw.temperature),
    avgLogprob: num(raw.avg_logprob),
    compressionRatio: num(raw.compression_ratio),
    noSpeechProb: num(raw.no_speech_prob),
  };
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 && value <= MAX_AUDIO_SECONDS ? value : undefined;
}

export function transcriptionFields(request: TranscriptionRequest): MultipartField[] {
  const file = request.file;
  const isBlob = typeof Blob !== 'undefined' && file instanceof Blob;
  if (!(file instanceof Uint8Array) && !isBlob) {
    throw new ValidationError('file must be audio bytes or a Blob', 'file');
  }
  const size = file instanceof Uint8Array ? file.byteLength : file.size;
  if (size === 0) throw new ValidationError('file must not be empty', 'file');
  requireNonEmptyString(request.filename, 'filename');
  const language = optionalString(request.language, 'language');
  if (language !== undefined && !/^[a-z]{2}$/i.test(language)) {
    throw new ValidationError('language must be an ISO 639-1 code such as "en"', 'language');
  }
  const task = request.task;
  if (task !== undefined && task !== 'transcribe' && task !== 'translate') {
    throw new ValidationError('task must be transcribe or translate', 'task');
  }
  const prompt = optionalString(request.initial_prompt, 'initial_prompt');
  const model = optionalString(request.model, 'model');
  const temperature = optionalNumberInRange(request.temperature, 0, 1, 'temperature');

  const fields: MultipartField[] = [
    file instanceof Uint8Array
      ? { name: 'file', data: file, filename: request.filename, contentType: request.contentType ?? audioType(request.filename) }
      : { name: 'file', blob: file.type === '' ? file.slice(0, file.size, request.contentType ?? audioType(request.filename)) : file, filename: request.filename },
  ];
  if (model) fields.push({ name: 'model', value: model });
  if (language) fields.push({ name: 'language', value: language.toLowerCase() });
  if (prompt) fields.push({ name: 'initial_prompt', value: prompt });
  if (task) fields.push({ name: 'task', value: task });
  if (temperature !== undefined) fields.push({ name: 'temperature', value: String(temperature) });
  // `json` is the only supported format (verbose, with segments).
  fields.push({ name: 'response_format', value: 'json' });
  return fields;
}

export async function transcribe(
  transport: HttpTransport,
  request: TranscriptionRequest,
  options: TranscriptionOptions = {},
): Promise<TranscriptionResult> {
  const res = await transport.request({
    method: 'POST',
    path: TRANSCRIPTION_PATH,
    form: transcriptionFields(request),
    billed: true,
    signal: options.signal,
    timeouts: { firstByteMs: options.firstByteTimeoutMs ?? TRANSCRIPTION_FIRST_BYTE_MS },
    ...(options.onUploadProgress ? { onUploadProgress: options.onUploadProgress } : {}),
  });
  const body = await res.json();
  if (!isRecord(body) || typeof body.text !== 'string') {
    throw new MalformedResponseError(`POST ${TRANSCRIPTION_PATH}: the response has no text`);
  }
  const segments = arr(body.segments)
    .map(segment)
    .filter((s): s is TranscriptionSegment => s !== undefined);
  const lastEnd = segments.length > 0 ? segments.reduce((max, s) => Math.max(max, s.end), 0) : undefined;
  const serviceDuration = num(body.duration);
  const known = request.knownDurationSeconds;
  return {
    text: body.text,
    language: str(body.language),
    segments,
    durationSeconds: positive(serviceDuration) ?? positive(known) ?? lastEnd,
    meta: responseMeta(res),
  };
}
