import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetworkError } from '../../../src/core/errors';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { silentLogger } from '../../../src/core/log';
import { probeAudioFile, type AudioFile } from '../../../src/core/inference/transcription/audioFile';
import { AudioFileError, presentTranscriptionError } from '../../../src/core/inference/transcription/errors';
import type { ProgressStep } from '../../../src/core/inference/transcription/progress';
import { runTranscription, type AudioSource } from '../../../src/core/inference/transcription/run';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { eventually } from '../sandbox/helpers';
import { toneWav } from './audio';

const choice = { model: 'whisper-large-v3', language: 'en', task: 'transcribe' as const, prompt: undefined, temperature: undefined };

function sourceOf(audio: AudioFile): AudioSource {
  return { fileName: audio.fileName, size: audio.size, body: audio.blob, mimeType: audio.mimeType, durationSeconds: audio.durationSeconds, changedSinceProbe: audio.changedSinceProbe };
}

describe('transcription: a run from a checked file', () => {
  let sandbox: Sandbox;
  let client: InferenceClient;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: async () => sandbox.credentials.apiKey, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    dir = mkdtempSync(join(tmpdir(), 'stratus-run-'));
  });
  after(async () => {
    await client.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads with the choices and reports progress from "uploading" on, never past the upload share', async () => {
    const path = join(dir, 'daily.wav');
    writeFileSync(path, toneWav(6));
    const audio = await probeAudioFile(path, { maxBytes: 1024 * 1024 });
    const steps: ProgressStep[] = [];
    const result = await runTranscription(client, sourceOf(audio), choice, (s) => steps.push(s), new AbortController().signal, silentLogger);
    assert.equal(result.segments.length, 2);
    assert.equal(result.durationSeconds, 6);
    assert.equal(steps[0]?.message, `uploading daily.wav (${(toneWav(6).length / 1024).toFixed(1)} KB)…`);
    for (const step of steps.slice(1)) assert.match(step.message, /^(uploading: \d+% of|waiting for the transcription…$)/);
    assert.ok(steps.reduce((sum, s) => sum + (s.increment ?? 0), 0) <= 90);
    const parts = sandbox.control.requests({ pathPrefix: '/v1/audio/transcriptions' }).at(-1)?.body?.parts ?? [];
    assert.deepEqual(parts.filter((p) => p.name !== 'file').map((p) => `${p.name}=${p.value}`), ['model=whisper-large-v3', 'language=en', 'task=transcribe', 'response_format=json']);
  });

  it('a file rewritten after the check is reported as changed, not as a network failure', async () => {
    const path = join(dir, 'growing.wav');
    writeFileSync(path, toneWav(2));
    const audio = await probeAudioFile(path, { maxBytes: 1024 * 1024 });
    writeFileSync(path, toneWav(3));
    utimesSync(path, new Date(audio.mtimeMs + 5000), new Date(audio.mtimeMs + 5000));
    const error = await runTranscription(client, sourceOf(audio), choice, () => undefined, new AbortController().signal, silentLogger).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof AudioFileError && error.problem === 'changed', String(error));
    const shown = presentTranscriptionError(error, { fileName: 'growing.wav' });
    assert.match(shown.message, /growing\.wav changed on disk while it was being uploaded/);
    assert.deepEqual(shown.actions, ['retry']);
  });

  it('a network failure on an unchanged file stays a network failure', async () => {
    const path = join(dir, 'steady.wav');
    writeFileSync(path, toneWav(1));
    const audio = await probeAudioFile(path, { maxBytes: 1024 * 1024 });
    const offline = createInferenceClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: async () => 'sk-test', retry: { attempts: 1 } });
    try {
      const error = await runTranscription(offline, sourceOf(audio), choice, () => undefined, new AbortController().signal, silentLogger).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof NetworkError, String(error));
      assert.equal(await audio.changedSinceProbe(), false);
    } finally {
      await offline.close();
    }
  });
});

describe('transcription: a file written during the upload', () => {
  let sandbox: Sandbox;
  let client: InferenceClient;
  let dir: string;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: async () => sandbox.credentials.apiKey });
    dir = mkdtempSync(join(tmpdir(), 'stratus-watch-'));
  });
  after(async () => {
    await client.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the request as soon as the watcher reports a real change, and says so', async () => {
    const path = join(dir, 'live.wav');
    writeFileSync(path, toneWav(2));
    const audio = await probeAudioFile(path, { maxBytes: 1024 * 1024 });
    sandbox.control.setLatency({ ms: 60_000, pathPrefix: '/v1/audio/transcriptions' });
    let fire: (() => void) | undefined;
    let changedOnDisk = false;
    const source: AudioSource = { ...sourceOf(audio), changedSinceProbe: async () => changedOnDisk, watchChanges: (onChange) => { fire = onChange; return { dispose: () => { fire = undefined; } }; } };
    // A transport that reports no upload progress: the upload is never known to be complete.
    const silent: InferenceClient = { ...client, transcribe: (request, options) => client.transcribe(request, { ...options, onUploadProgress: () => undefined } as object) };
    const pending = runTranscription(silent, source, choice, () => undefined, new AbortController().signal, silentLogger).then(() => undefined, (e: unknown) => e);
    await eventually(() => sandbox.control.requests({ pathPrefix: '/v1/audio/transcriptions' }).length > 0, 5000);
    fire?.(); // an event without a real change (say, a chmod): ignored
    changedOnDisk = true;
    fire?.();
    const error = await pending;
    assert.ok(error instanceof AudioFileError && error.problem === 'changed', String(error));
    assert.equal(fire, undefined, 'the watcher is disposed');
    await eventually(() => sandbox.control.requests({ pathPrefix: '/v1/audio/transcriptions' }).some((r) => r.clientClosedEarly), 5000);
    sandbox.control.setLatency(null);
  });

  it('a change after every byte was sent does not stop the transcription', async () => {
    const path = join(dir, 'done.wav');
    writeFileSync(path, toneWav(2));
    const audio = await probeAudioFile(path, { maxBytes: 1024 * 1024 });
    let fire: (() => void) | undefined;
    let changedOnDisk = false;
    const source: AudioSource = { ...sourceOf(audio), changedSinceProbe: async () => changedOnDisk, watchChanges: (onChange) => { fire = onChange; return { dispose: () => undefined }; } };
    // Progress that says everything is out at once, then a change while the service works.
    const reporting: InferenceClient = { ...client, transcribe: (request, options) => { (options as { onUploadProgress?: (n: number) => void }).onUploadProgress?.(audio.size); changedOnDisk = true; fire?.(); return client.transcribe(request, options); } };
    const result = await runTranscription(reporting, source, { ...choice }, () => undefined, new AbortController().signal, silentLogger);
    assert.equal(result.segments.length, 1);
  });

  it('the real watcher sees a write to the file', async () => {
    const path = join(dir, 'watched.wav');
    writeFileSync(path, toneWav(1));
    const audio = await probeAudioFile(path, { maxBytes: 1024 * 1024 });
    let seen = false;
    const watcher = audio.watchChanges(() => { seen = true; });
    try {
      writeFileSync(path, toneWav(2));
      await eventually(() => seen, 5000);
      assert.equal(await audio.changedSinceProbe(), true);
    } finally {
      watcher.dispose();
    }
  });
});
