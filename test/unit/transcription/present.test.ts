import assert from 'node:assert/strict';
import { ApiError, CancelledError, NetworkError, OutcomeUnknownError, RateLimitError, TimeoutError, ValidationError } from '../../../src/core/errors';
import { choiceFromPrompt, parseChoiceArgument, type TranscriptionChoice } from '../../../src/core/inference/transcription/choice';
import { transcriptMarkdown } from '../../../src/core/inference/transcription/markdown';
import { presentTranscriptionError } from '../../../src/core/inference/transcription/errors';
import { findLanguage, LANGUAGES, languageLabel } from '../../../src/core/inference/transcription/languages';
import { UploadProgress, type ProgressStep } from '../../../src/core/inference/transcription/progress';

describe('transcription: presenting errors', () => {
  const ctx = { fileName: 'talk.wav', format: 'wav' as const };

  it('413 from the service: too large, with the size setting', () => {
    const shown = presentTranscriptionError(new ApiError({ status: 413, message: 'Request body too large' }), ctx);
    assert.match(shown.message, /refused talk\.wav as too large \(413\)/);
    assert.deepEqual(shown.actions, ['openSizeSetting', 'showLog']);
  });

  it('400 on a contract format: check or convert the file', () => {
    const shown = presentTranscriptionError(new ApiError({ status: 400, message: 'The uploaded file is empty.', param: 'file' }), ctx);
    assert.match(shown.message, /did not accept the audio in talk\.wav \(400\): The uploaded file is empty\. Check the file/);
  });

  it('400 on another option: change the options', () => {
    const shown = presentTranscriptionError(new ApiError({ status: 400, message: "'language' must be an ISO 639-1 code", param: 'language' }), ctx);
    assert.match(shown.message, /refused the option `language`/);
    assert.deepEqual(shown.actions, ['changeOptions', 'showLog']);
  });

  it('a slow transcription (first-byte timeout) says so in minutes and offers retry', () => {
    const shown = presentTranscriptionError(new TimeoutError('t', 'first_byte', 600_000), ctx);
    assert.match(shown.message, /did not finish transcribing talk\.wav within 10 min/);
    assert.deepEqual(shown.actions, ['retry', 'showLog']);
  });

  it('a broken upload after sending: may have been billed, retry', () => {
    const shown = presentTranscriptionError(new OutcomeUnknownError('x', 'POST /v1/audio/transcriptions', 'ECONNRESET'), ctx);
    assert.match(shown.message, /may have processed \(and billed\) it/);
    assert.ok(shown.actions.includes('retry'));
  });

  it('falls back to the shared presenter, mapping its actions', () => {
    assert.deepEqual(presentTranscriptionError(new NetworkError('down', 'ECONNREFUSED'), ctx).actions, ['openSettings', 'retry', 'showLog']);
    const limited = presentTranscriptionError(new RateLimitError({ status: 429, message: 'slow down', retryAfterMs: 5000 }, { now: 0 }), ctx, 0);
    assert.match(limited.message, /Retry in 5 s/);
    assert.equal(presentTranscriptionError(new CancelledError(), ctx).cancelled, true);
    assert.match(presentTranscriptionError(new Error('boom'), ctx).message, /Unexpected error: boom/);
    assert.deepEqual(presentTranscriptionError(new ValidationError('Set it', 'stratus.inference.baseUrl'), ctx).actions, ['openSettings']);
  });
});

describe('transcription: languages', () => {
  it('ISO 639-1 codes only, unique, with names', () => {
    assert.ok(LANGUAGES.length >= 90);
    assert.ok(LANGUAGES.every((l) => /^[a-z]{2}$/.test(l.code) && l.name.length > 1));
    assert.equal(new Set(LANGUAGES.map((l) => l.code)).size, LANGUAGES.length);
    assert.equal(findLanguage('FR')?.name, 'French');
    assert.equal(findLanguage('xx'), undefined);
    assert.equal(languageLabel(undefined), 'automatic');
    assert.equal(languageLabel('de'), 'German (de)');
    assert.equal(languageLabel('qq'), 'qq');
  });
});

describe('transcription: upload progress', () => {
  it('reports percentages of the upload then waiting, with increments summing to the upload share', () => {
    const steps: ProgressStep[] = [];
    const progress = new UploadProgress(1000, (s) => steps.push(s), 'talk.wav');
    progress.start();
    progress.sent(0);
    progress.sent(250);
    progress.sent(250); // repeated: nothing new
    progress.sent(100); // a retry starts over: no step back
    progress.sent(500);
    progress.sent(1000);
    progress.sent(1000);
    assert.deepEqual(steps.map((s) => s.message), [
      'uploading talk.wav (1000 B)…',
      'uploading: 0% of 1000 B…',
      'uploading: 25% of 1000 B…',
      'uploading: 50% of 1000 B…',
      'waiting for the transcription…',
    ]);
    assert.deepEqual(steps.map((s) => s.phase), ['start', 'uploading', 'uploading', 'uploading', 'waiting']);
    const total = steps.reduce((sum, s) => sum + (s.increment ?? 0), 0);
    assert.equal(total, UploadProgress.UPLOAD_SHARE);
    assert.ok(progress.isWaiting);
  });

  it('without byte counts, waiting is reported once when asked', () => {
    const steps: ProgressStep[] = [];
    const progress = new UploadProgress(10, (s) => steps.push(s), 'a.wav');
    progress.waitingForResult();
    progress.waitingForResult();
    assert.equal(steps.length, 1);
    assert.equal(steps[0]?.increment, 90);
  });
});

describe('transcription: result document', () => {
  it('has the facts, the text and a segment table with escaped cells', () => {
    const md = transcriptMarkdown({
      fileName: 'talk.wav',
      text: ' Hello | world. ',
      segments: [{ start: 0, end: 1.5, text: ' Hello |\nworld.' }, { start: 3661, end: 3662.25, text: 'back\\slash' }],
      model: 'whisper-large-v3',
      requestedLanguage: undefined,
      language: 'en',
      task: 'transcribe',
      durationSeconds: 3662.25,
    });
    assert.match(md, /^# Transcription of talk\.wav\n/);
    assert.match(md, /\*\*Model:\*\* whisper-large-v3 · \*\*Language:\*\* English \(en\), detected · \*\*Task:\*\* transcribe · \*\*Duration:\*\* 1:01:02 · \*\*Segments:\*\* 2/);
    assert.match(md, /## Text\n\nHello \| world\.\n/);
    assert.match(md, /\| 1 \| 00:00:00\.000 \| 00:00:01\.500 \| Hello \\\| world\. \|/);
    assert.match(md, /\| 2 \| 01:01:01\.000 \| 01:01:02\.250 \| back\\\\slash \|/);
  });

  it('says when nothing was recognised, and names a translation', () => {
    const md = transcriptMarkdown({ fileName: 'q.wav', text: '', segments: [], model: undefined, requestedLanguage: 'de', language: 'de', task: 'translate', durationSeconds: undefined });
    assert.match(md, /^# Translation of q\.wav/);
    assert.match(md, /\*\*Language:\*\* German \(de\) · \*\*Task:\*\* translate to English · \*\*Segments:\*\* 0/);
    assert.match(md, /_\(no speech recognised\)_/);
    assert.match(md, /## Segments\n\n_\(none\)_/);
  });
});

describe('transcription: options from the chat prompt and from a command argument', () => {
  const defaults: TranscriptionChoice = { model: 'whisper-large-v3', language: undefined, task: 'transcribe', prompt: undefined, temperature: 0.3 };

  it('reads translate, lang:xx, a language name and auto from the first words; the rest is the prompt', () => {
    assert.deepEqual(choiceFromPrompt('translate lang:FR Stratus, Kubernetes', defaults), { ...defaults, task: 'translate', language: 'fr', prompt: 'Stratus, Kubernetes' });
    assert.deepEqual(choiceFromPrompt('German', defaults), { ...defaults, language: 'de' });
    assert.deepEqual(choiceFromPrompt('auto is about translate', { ...defaults, language: 'it' }), { ...defaults, language: undefined, prompt: 'is about translate' });
    assert.deepEqual(choiceFromPrompt('', { ...defaults, task: 'translate', prompt: 'old' }), defaults);
  });

  it('a command argument must be a plain object: the Explorer\'s URI list is not options', () => {
    assert.equal(parseChoiceArgument([{ path: '/a.wav' }], defaults), undefined);
    assert.equal(parseChoiceArgument('fr', defaults), undefined);
    assert.equal(parseChoiceArgument(new URL('file:///a.wav'), defaults), undefined);
    assert.deepEqual(parseChoiceArgument({ language: 'fr', task: 'translate', prompt: ' VM ', temperature: 0 }, defaults), { model: 'whisper-large-v3', language: 'fr', task: 'translate', prompt: 'VM', temperature: 0 });
    assert.deepEqual(parseChoiceArgument({ language: 'auto', model: '' }, { ...defaults, language: 'de' }), { ...defaults, temperature: undefined });
  });
});
