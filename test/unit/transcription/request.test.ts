import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, AuthError, CancelledError, NotFoundError, ValidationError } from '../../../src/core/errors';
import { createInferenceClient, type InferenceClient, type TranscriptionOptions } from '../../../src/core/inference';
import { probeAudioFile } from '../../../src/core/inference/transcription/audioFile';
import { presentTranscriptionError } from '../../../src/core/inference/transcription/errors';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';
import { eventually } from '../sandbox/helpers';
import { SIGNATURES, toneWav } from './audio';

const MB = 1024 * 1024;

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`transcription request against the sandbox (${profile} profile)`, function () {
    let sandbox: Sandbox;
    let dir: string;
    const clients: InferenceClient[] = [];
    const client = (apiKey?: string): InferenceClient => {
      const c = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: async () => apiKey ?? sandbox.credentials.apiKey, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
      clients.push(c);
      return c;
    };
    const file = (name: string, data: Buffer): string => {
      const path = join(dir, name);
      writeFileSync(path, data);
      return path;
    };
    const transcriptions = () => sandbox.control.requests({ pathPrefix: '/v1/audio/transcriptions' });

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
      dir = mkdtempSync(join(tmpdir(), 'stratus-transcription-'));
    });
    afterEach(() => {
      sandbox.control.reset();
    });
    after(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('streams a file-backed Blob as the multipart file part and gets the segments', async () => {
      const audio = await probeAudioFile(file('tone.wav', toneWav(12)), { maxBytes: 25 * MB });
      const result = await client().transcribe({ file: audio.blob, filename: audio.fileName, language: 'fr', initial_prompt: 'Stratus', task: 'transcribe', temperature: 0.2, knownDurationSeconds: audio.durationSeconds });
      assert.equal(result.segments.length, 3);
      assert.equal(result.segments[0]?.text, ' [Stratus] Segment 1 of the sandbox transcription of tone.wav.');
      assert.deepEqual(result.segments.map((s) => [s.start, s.end]), [[0, 5], [5, 10], [10, 12]]);
      assert.equal(result.language, 'fr');
      assert.equal(result.durationSeconds, 12);
      const parts = transcriptions().at(-1)?.body?.parts ?? [];
      const filePart = parts.find((p) => p.name === 'file');
      assert.equal(filePart?.filename, 'tone.wav');
      assert.equal(filePart?.contentType, 'audio/wav');
      assert.equal(filePart?.bytes, toneWav(12).length);
      assert.deepEqual(
        parts.filter((p) => p.name !== 'file').map((p) => [p.name, p.value]),
        [['language', 'fr'], ['initial_prompt', 'Stratus'], ['task', 'transcribe'], ['temperature', '0.2'], ['response_format', 'json']],
      );
    });

    it('the type of a Blob is the detected format, not the extension: a WAV named .mp3 goes as audio/wav', async () => {
      const audio = await probeAudioFile(file('really-a-wav.mp3', toneWav(1)), { maxBytes: 25 * MB });
      assert.equal(audio.format, 'wav');
      await client().transcribe({ file: audio.blob, filename: audio.fileName });
      assert.equal(transcriptions().at(-1)?.body?.parts?.find((p) => p.name === 'file')?.contentType, 'audio/wav');
    });

    it('a Blob without a type gets one from the file name', async () => {
      await client().transcribe({ file: new Blob([new Uint8Array(toneWav(1))]), filename: 'x.wav' });
      assert.equal(transcriptions().at(-1)?.body?.parts?.find((p) => p.name === 'file')?.contentType, 'audio/wav');
    });

    it('a retried upload (503 once) sends the whole file again, read from disk again', async () => {
      const audio = await probeAudioFile(file('retry.wav', toneWav(3)), { maxBytes: 25 * MB });
      sandbox.control.burst({ status: 503, count: 1, pathPrefix: '/v1/audio/transcriptions' });
      const result = await client().transcribe({ file: audio.blob, filename: audio.fileName });
      assert.equal(result.segments.length, 1);
      const seen = transcriptions();
      assert.deepEqual(seen.map((r) => r.status), [503, 200]);
      for (const r of seen) assert.equal(r.body?.parts?.find((p) => p.name === 'file')?.bytes, audio.size);
    });

    it(`durationSeconds: ${profile === 'production' ? "the service's duration" : 'the header length, else the last segment end'}`, async () => {
      // 7.5 s of audio: segments end at 7.5 either way; a header hint of 7.5 agrees.
      const audio = await probeAudioFile(file('seven.wav', toneWav(7.5)), { maxBytes: 25 * MB });
      assert.equal(audio.durationSeconds, 7.5);
      const hinted = await client().transcribe({ file: audio.blob, filename: audio.fileName, knownDurationSeconds: audio.durationSeconds });
      assert.equal(hinted.durationSeconds, 7.5);
      const bare = await client().transcribe({ file: audio.blob, filename: audio.fileName });
      assert.equal(bare.durationSeconds, 7.5);
      // A wrong hint loses to the service's own figure in production, and wins over segments in contract.
      const wrongHint = await client().transcribe({ file: audio.blob, filename: audio.fileName, knownDurationSeconds: 100 });
      assert.equal(wrongHint.durationSeconds, profile === 'production' ? 7.5 : 100);
    });

    it('passes the upload progress callback through without breaking the upload', async () => {
      const audio = await probeAudioFile(file('progress.wav', toneWav(2)), { maxBytes: 25 * MB });
      const sent: number[] = [];
      const options: TranscriptionOptions = { onUploadProgress: (n) => sent.push(n) };
      const result = await client().transcribe({ file: audio.blob, filename: audio.fileName }, options);
      assert.equal(result.segments.length, 1);
      // Counts grow to the whole multipart body (the file plus the part headers and fields).
      assert.ok(sent.length > 0, 'progress was reported');
      assert.deepEqual(sent, [...sent].sort((a, b) => a - b));
      const total = sent.at(-1) ?? 0;
      assert.ok(total > audio.size && total < audio.size + 2048, `${total} bytes for a ${audio.size}-byte file`);
      assert.equal(transcriptions().at(-1)?.body?.bytes, total);
    });

    it('cancelling aborts the HTTP request: the sandbox sees the client close early', async () => {
      const audio = await probeAudioFile(file('cancel.wav', toneWav(2)), { maxBytes: 25 * MB });
      sandbox.control.setLatency({ ms: 60_000, pathPrefix: '/v1/audio/transcriptions' });
      const controller = new AbortController();
      const pending = client().transcribe({ file: audio.blob, filename: audio.fileName }, { signal: controller.signal });
      await eventually(() => transcriptions().some((r) => r.body?.parts?.some((p) => p.name === 'file') === true), 5000);
      controller.abort();
      await assert.rejects(pending, (e: unknown) => e instanceof CancelledError);
      await eventually(() => transcriptions().some((r) => r.clientClosedEarly), 5000);
      assert.equal(presentTranscriptionError(new CancelledError(), { fileName: 'cancel.wav' }).cancelled, true);
    });

    describe('service errors become clear messages with an action', () => {
      it('a format the service does not take (ogg): 400 param file, with a hint to convert', async () => {
        const audio = await probeAudioFile(file('voice.ogg', SIGNATURES.ogg), { maxBytes: 25 * MB });
        const error = await client().transcribe({ file: audio.blob, filename: audio.fileName }).then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof ApiError && error.status === 400 && error.param === 'file');
        const shown = presentTranscriptionError(error, { fileName: 'voice.ogg', format: 'ogg' });
        assert.match(shown.message, /did not accept the audio in voice\.ogg \(400\)/);
        assert.match(shown.message, /may not accept ogg audio: convert it to wav, mp3, m4a/);
      });

      it('an unknown speech model: 404 model_not_found -> pick a speech model', async () => {
        const error = await client().transcribe({ file: new Uint8Array(toneWav(1)), filename: 'a.wav', model: 'whisper-9' }).then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof NotFoundError && error.isModelNotFound);
        assert.deepEqual(presentTranscriptionError(error, { fileName: 'a.wav' }).actions, ['pickSpeechModel']);
      });

      it('a chat model as speech model: 400 param model -> pick a speech model', async () => {
        const error = await client().transcribe({ file: new Uint8Array(toneWav(1)), filename: 'a.wav', model: 'gpt-oss:120b' }).then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof ApiError && error.param === 'model');
        const shown = presentTranscriptionError(error, { fileName: 'a.wav' });
        assert.deepEqual(shown.actions, ['pickSpeechModel']);
        assert.match(shown.message, /not a speech-to-text model/);
      });

      it('a rejected API key: 401 -> set the API key, and the key never appears', async () => {
        const error = await client('sk-wrong-key-123456').transcribe({ file: new Uint8Array(toneWav(1)), filename: 'a.wav' }).then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof AuthError && error.reason === 'rejected');
        const shown = presentTranscriptionError(error, { fileName: 'a.wav' });
        assert.ok(shown.actions.includes('setApiKey'));
        assert.ok(!shown.message.includes('sk-wrong-key-123456'));
      });

      it('a service that stays down (500 burst past the retries) -> retry', async () => {
        sandbox.control.burst({ status: 500, count: 10, pathPrefix: '/v1/audio/transcriptions' });
        const error = await client().transcribe({ file: new Uint8Array(toneWav(1)), filename: 'a.wav' }).then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof ApiError && error.status === 500);
        assert.ok(presentTranscriptionError(error, { fileName: 'a.wav' }).actions.includes('retry'));
      });

      it('client-side option checks come before any upload', async () => {
        const before = transcriptions().length;
        for (const [param, patch] of [['language', { language: 'french' }], ['task', { task: 'summarize' }], ['temperature', { temperature: 1.5 }], ['file', { file: new Blob([]) }]] as const) {
          const error = await client().transcribe({ file: new Uint8Array(toneWav(1)), filename: 'a.wav', ...(patch as object) }).then(() => undefined, (e: unknown) => e);
          assert.ok(error instanceof ValidationError && error.param === param, param);
          if (param !== 'file') assert.deepEqual(presentTranscriptionError(error, { fileName: 'a.wav' }).actions, ['changeOptions']);
        }
        assert.equal(transcriptions().length, before);
      });
    });
  });
}
