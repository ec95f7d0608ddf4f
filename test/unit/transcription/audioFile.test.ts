import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAudioBytes, probeAudioFile } from '../../../src/core/inference/transcription/audioFile';
import { AudioFileError, presentTranscriptionError, type AudioFileProblem } from '../../../src/core/inference/transcription/errors';
import { SIGNATURES, toneWav } from './audio';

describe('transcription: checking the audio file before upload', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'stratus-probe-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, data: Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  const refused = async (path: string, problem: AudioFileProblem, maxBytes = 1024 * 1024): Promise<AudioFileError> => {
    const error = await probeAudioFile(path, { maxBytes }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof AudioFileError, `expected AudioFileError, got ${String(error)}`);
    assert.equal(error.problem, problem);
    assert.equal(error.param, 'file');
    return error;
  };

  it('accepts every supported format by content and reports size, MIME type and header duration', async () => {
    const wav = await probeAudioFile(write('a.wav', toneWav(1.5)), { maxBytes: 1024 * 1024 });
    assert.deepEqual([wav.fileName, wav.format, wav.mimeType, wav.size, wav.durationSeconds], ['a.wav', 'wav', 'audio/wav', toneWav(1.5).length, 1.5]);
    assert.equal(wav.blob.size, wav.size);
    assert.equal(wav.blob.type, 'audio/wav');
    const expected = { mp3Id3: 'mp3', mp3Frame: 'mp3', m4a: 'm4a', ogg: 'ogg', flac: 'flac', webm: 'webm' } as const;
    for (const [key, format] of Object.entries(expected)) {
      const probed = await probeAudioFile(write(`${key}.bin`, SIGNATURES[key as keyof typeof expected]), { maxBytes: 1024 });
      assert.equal(probed.format, format, key);
    }
    assert.equal((await probeAudioFile(write('f.flac', SIGNATURES.flac), { maxBytes: 1024 })).durationSeconds, 3);
  });

  it('reads only the header, not the whole file, to check it', async () => {
    const big = write('big.wav', Buffer.concat([toneWav(0.01), Buffer.alloc(3 * 1024 * 1024)]));
    const probed = await probeAudioFile(big, { maxBytes: 10 * 1024 * 1024 });
    assert.equal(probed.format, 'wav');
    // The blob is file-backed: slicing and reading a window does not need the rest.
    assert.equal((await probed.blob.slice(0, 4).text()), 'RIFF');
  });

  it('refuses an empty file', async () => {
    const error = await refused(write('empty.wav', Buffer.alloc(0)), 'empty');
    assert.match(presentTranscriptionError(error, { fileName: 'empty.wav' }).message, /empty\.wav is empty \(0 bytes\)/);
  });

  it('refuses a file over the size cap, with both sizes and the setting to change', async () => {
    const error = await refused(write('long.wav', toneWav(2)), 'too_large', 10_000);
    assert.equal(error.details.size, toneWav(2).length);
    const shown = presentTranscriptionError(error, { fileName: 'long.wav' });
    assert.match(shown.message, /long\.wav is 31\.3 KB, over the 9\.8 KB upload limit \(stratus\.transcription\.maxFileSizeMB\)/);
    assert.deepEqual(shown.actions, ['openSizeSetting']);
  });

  it('refuses a text file named .wav, saying what it is', async () => {
    const error = await refused(write('fake.wav', SIGNATURES.text), 'unsupported_format');
    assert.equal(error.details.content, 'text');
    assert.match(presentTranscriptionError(error, { fileName: 'fake.wav' }).message, /its content is text \(checked by content, not by the extension\)\. Supported: wav, mp3, m4a, ogg, flac, webm/);
    await refused(write('image.mp3', SIGNATURES.png), 'unsupported_format');
  });

  it('refuses a missing file and a folder', async () => {
    await refused(join(dir, 'nope.wav'), 'not_found');
    const folder = join(dir, 'folder.wav');
    mkdirSync(folder);
    const error = await refused(folder, 'not_a_file');
    assert.match(presentTranscriptionError(error, { fileName: 'folder.wav' }).message, /not a file/);
  });

  it('refuses a path that cannot be opened, with its error code', async () => {
    const error = await refused(join(write('plain.wav', toneWav(1)), 'inside.wav'), 'unreadable');
    assert.equal(error.details.code, 'ENOTDIR');
    assert.match(presentTranscriptionError(error, { fileName: 'inside.wav' }).message, /Cannot read inside\.wav \(ENOTDIR\)/);
  });

  describe('attached bytes (chat)', () => {
    it('accepts audio by content with its header duration', () => {
      const audio = checkAudioBytes(new Uint8Array(toneWav(2)), 'dropped.mp3', 1024 * 1024);
      assert.deepEqual([audio.format, audio.mimeType, audio.durationSeconds, audio.size], ['wav', 'audio/wav', 2, toneWav(2).length]);
    });

    it('refuses empty, too large and non-audio bytes with the same problems as files', () => {
      const problem = (f: () => unknown): string | undefined => {
        try {
          f();
          return undefined;
        } catch (e) {
          return e instanceof AudioFileError ? e.problem : 'other';
        }
      };
      assert.equal(problem(() => checkAudioBytes(new Uint8Array(), 'a.wav', 10)), 'empty');
      assert.equal(problem(() => checkAudioBytes(new Uint8Array(toneWav(1)), 'a.wav', 100)), 'too_large');
      assert.equal(problem(() => checkAudioBytes(new Uint8Array(SIGNATURES.pdf), 'a.wav', 1000)), 'unsupported_format');
    });
  });
});
