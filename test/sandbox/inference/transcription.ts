import { sendJson, type Headers, type RequestContext } from '../core/http';
import { fnv1a } from '../core/ids';
import type { SandboxState } from '../state';
import { audioDurationSeconds, detectAudioFormat, type AudioFormat } from './audio';
import { invalid, modelNotFound, sendInferenceError, type InferenceError } from './errors';
import { DEFAULT_SPEECH_MODEL, findModel } from './models';
import { boundaryOf, parseMultipart, type FormPart } from './multipart';

export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
export const SEGMENT_SECONDS = 5;
export const MAX_SEGMENTS = 50;

/**
 * Scripted transcription. Segments cover the audio in 5 s slices (at least 1, at most 50); the
 * text of segment n (1-based) is
 *   transcribe: " Segment n of the sandbox transcription of <filename>."
 *   translate:  " Segment n of the sandbox English translation of <filename>."
 * and the first segment starts with " [<initial_prompt>]" when one was given. `text` is the
 * trimmed concatenation. `language` is the given one, else "en" (the "detected" language).
 */

interface Parsed {
  model: string;
  file: FormPart & { format: AudioFormat };
  language: string | undefined;
  task: 'transcribe' | 'translate';
  initialPrompt: string | undefined;
}

function field(parts: FormPart[], name: string): string | undefined {
  const part = parts.find((p) => p.name === name && p.filename === undefined);
  return part?.data.toString('utf8');
}

export function multipartSummary(parts: FormPart[]): Array<{ name: string; filename?: string; contentType?: string; bytes: number; value?: string }> {
  return parts.map((p) => {
    const out: { name: string; filename?: string; contentType?: string; bytes: number; value?: string } = { name: p.name, bytes: p.data.length };
    if (p.filename !== undefined) out.filename = p.filename;
    if (p.contentType !== undefined) out.contentType = p.contentType;
    if (p.filename === undefined) out.value = p.data.toString('utf8');
    return out;
  });
}

function parse(parts: FormPart[]): Parsed | InferenceError {
  const modelId = field(parts, 'model') ?? DEFAULT_SPEECH_MODEL;
  const model = findModel(modelId);
  if (!model) return modelNotFound(modelId);
  if (model.kind !== 'speech') return invalid(`The model '${model.id}' is not a speech-to-text model.`, 'model');
  const responseFormat = field(parts, 'response_format');
  if (responseFormat !== undefined && responseFormat !== 'json') {
    return invalid(`response_format '${responseFormat}' is not supported: only 'json' (verbose JSON with segments) is available.`, 'response_format');
  }
  const file = parts.find((p) => p.name === 'file');
  if (!file) return invalid(`'file' is required (multipart field "file" with the audio).`, 'file');
  if (file.data.length === 0) return invalid('The uploaded file is empty.', 'file');
  if (file.data.length > MAX_AUDIO_BYTES) return invalid(`The uploaded file is larger than ${MAX_AUDIO_BYTES} bytes.`, 'file');
  const format = detectAudioFormat(file.data);
  if (!format) return invalid('Unsupported audio format: the file content is not wav, mp3 or m4a.', 'file');
  const language = field(parts, 'language');
  if (language !== undefined && language !== '' && !/^[a-z]{2}$/.test(language)) return invalid(`'language' must be an ISO 639-1 code such as 'en' or 'fr'.`, 'language');
  const task = field(parts, 'task') ?? 'transcribe';
  if (task !== 'transcribe' && task !== 'translate') return invalid(`'task' must be 'transcribe' or 'translate'.`, 'task');
  const initialPrompt = field(parts, 'initial_prompt') ?? field(parts, 'prompt');
  return { model: model.id, file: { ...file, format }, language: language === '' ? undefined : language, task, initialPrompt: initialPrompt === '' ? undefined : initialPrompt };
}

function tokensOf(text: string): number[] {
  const words = text.trim().split(/\s+/).filter((w) => w.length > 0);
  return [50364, ...words.map((w) => 220 + (fnv1a(w) % 50000))];
}

/** POST /v1/audio/transcriptions (multipart/form-data). */
export function handleTranscription(state: SandboxState, ctx: RequestContext, headers: Headers): void {
  const boundary = boundaryOf(ctx.req.headers['content-type']);
  if (boundary === undefined) {
    sendInferenceError(ctx, invalid('The body must be multipart/form-data with a "file" field.', 'file'), headers);
    return;
  }
  const parts = parseMultipart(ctx.body, boundary);
  if (!parts) {
    sendInferenceError(ctx, invalid('The multipart/form-data body is malformed.', 'file'), headers);
    return;
  }
  const parsed = parse(parts);
  if ('status' in parsed) {
    sendInferenceError(ctx, parsed, headers);
    return;
  }
  const duration = Math.round(audioDurationSeconds(parsed.file.data, parsed.file.format) * 1000) / 1000;
  const count = Math.max(1, Math.min(MAX_SEGMENTS, Math.ceil(duration / SEGMENT_SECONDS)));
  const filename = parsed.file.filename ?? 'audio';
  const segments = [];
  for (let i = 0; i < count; i++) {
    const start = i * SEGMENT_SECONDS;
    const end = i === count - 1 ? Math.max(duration, start) : (i + 1) * SEGMENT_SECONDS;
    const what = parsed.task === 'translate' ? 'sandbox English translation' : 'sandbox transcription';
    const prompt = i === 0 && parsed.initialPrompt !== undefined ? ` [${parsed.initialPrompt}]` : '';
    const text = `${prompt} Segment ${i + 1} of the ${what} of ${filename}.`;
    segments.push({
      id: i,
      seek: Math.round(start * 100),
      start,
      end,
      text,
      tokens: tokensOf(text),
      temperature: 0,
      avg_logprob: -0.25,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    });
  }
  const response: Record<string, unknown> = {
    text: segments.map((s) => s.text).join('').trim(),
    language: parsed.language ?? 'en',
    segments,
  };
  if (state.profile === 'production') {
    response.task = parsed.task;
    response.duration = duration;
    response.model = parsed.model;
  }
  sendJson(ctx, 200, response, headers);
}
