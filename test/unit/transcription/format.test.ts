import assert from 'node:assert/strict';
import { describeContent, detectAudioFormat, headerDurationSeconds } from '../../../src/core/inference/transcription/format';
import { flacHeader, SIGNATURES, toneWav } from './audio';

describe('transcription: audio format by content', () => {
  it('recognises wav, mp3 (ID3 and frame sync), m4a, ogg, flac and webm from their first bytes', () => {
    assert.equal(detectAudioFormat(toneWav(0.1)), 'wav');
    assert.equal(detectAudioFormat(SIGNATURES.mp3Id3), 'mp3');
    assert.equal(detectAudioFormat(SIGNATURES.mp3Frame), 'mp3');
    assert.equal(detectAudioFormat(SIGNATURES.m4a), 'm4a');
    assert.equal(detectAudioFormat(SIGNATURES.ogg), 'ogg');
    assert.equal(detectAudioFormat(SIGNATURES.flac), 'flac');
    assert.equal(detectAudioFormat(SIGNATURES.webm), 'webm');
  });

  it('refuses content that is not audio, whatever its name would say', () => {
    for (const data of [SIGNATURES.png, SIGNATURES.pdf, SIGNATURES.text, SIGNATURES.aviRiff, SIGNATURES.aacAdts, Buffer.alloc(0), Buffer.from([0xff])]) {
      assert.equal(detectAudioFormat(data), undefined, data.toString('hex').slice(0, 16));
    }
  });

  it('describes what a refused file looks like', () => {
    assert.equal(describeContent(SIGNATURES.png), 'a PNG image');
    assert.equal(describeContent(SIGNATURES.pdf), 'a PDF document');
    assert.equal(describeContent(SIGNATURES.text), 'text');
    assert.match(describeContent(SIGNATURES.aviRiff), /RIFF file of type "AVI "/);
    assert.equal(describeContent(Buffer.from([0, 1, 2, 3])), 'unrecognised binary data');
    assert.equal(describeContent(Buffer.alloc(0)), 'nothing (the file is empty)');
  });

  it('reads the exact duration of a WAV from its header, LIST chunk or not', () => {
    const plain = toneWav(2.5);
    assert.equal(headerDurationSeconds(plain.subarray(0, 4096), 'wav', plain.length), 2.5);
    const listed = toneWav(1.25, { extraChunk: true, sampleRate: 16000 });
    assert.equal(headerDurationSeconds(listed.subarray(0, 4096), 'wav', listed.length), 1.25);
  });

  it('bounds a WAV whose data chunk claims more than the file holds, and gives up on streamed sizes', () => {
    const wav = toneWav(2);
    assert.equal(headerDurationSeconds(wav, 'wav', 44 + 8000), 0.5); // truncated file: 8000 bytes of 16 000 B/s
    const streamed = Buffer.from(wav);
    streamed.writeUInt32LE(0xffffffff, 40);
    assert.equal(headerDurationSeconds(streamed, 'wav', streamed.length), undefined);
  });

  it('reads a FLAC duration from STREAMINFO; other formats have none', () => {
    assert.equal(headerDurationSeconds(flacHeader(48000, 48000 * 90), 'flac', 1000), 90);
    assert.equal(headerDurationSeconds(flacHeader(44100, 0), 'flac', 1000), undefined);
    assert.equal(headerDurationSeconds(SIGNATURES.mp3Id3, 'mp3', 1000), undefined);
  });
});
