import assert from 'node:assert/strict';
import { audioForm, call, makeWav, useSandbox, type ErrorEnvelope } from './helpers';

interface Segment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number;
  avg_logprob: number;
  compression_ratio: number;
  no_speech_prob: number;
}
interface Transcription {
  text: string;
  language: string;
  segments: Segment[];
  [extra: string]: unknown;
}

const MP3_ID3 = Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(3200, 1)]);
const MP3_FRAME = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(1000)]);
const M4A = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A \x00\x00\x02\x00', 'latin1'), Buffer.alloc(48000)]);

describe('sandbox inference: audio transcription', () => {
  const sb = useSandbox();
  const post = (form: FormData | string, headers: Record<string, string> = {}): ReturnType<typeof call> =>
    call(`${sb().inferenceUrl}/audio/transcriptions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${sb().credentials.apiKey}`, ...headers } });

  it('transcribes a WAV: text, language, segments with every contract field', async () => {
    const r = await post(audioForm(makeWav(12), 'meeting.wav', { model: 'whisper-large-v3' }));
    assert.equal(r.status, 200, r.text);
    const body = r.json as Transcription;
    assert.deepEqual(Object.keys(body).sort(), ['language', 'segments', 'text']);
    assert.equal(body.language, 'en');
    assert.equal(body.segments.length, 3); // 12 s in 5 s slices
    const fields = ['avg_logprob', 'compression_ratio', 'end', 'id', 'no_speech_prob', 'seek', 'start', 'temperature', 'text', 'tokens'];
    body.segments.forEach((s, i) => {
      assert.deepEqual(Object.keys(s).sort(), fields);
      assert.equal(s.id, i);
      assert.ok(Number.isInteger(s.seek));
      assert.ok(s.tokens.length > 0 && s.tokens.every(Number.isInteger));
      for (const k of ['temperature', 'avg_logprob', 'compression_ratio', 'no_speech_prob', 'start', 'end'] as const) assert.equal(typeof s[k], 'number');
    });
    assert.equal(body.segments[0]?.start, 0);
    assert.equal(body.segments[2]?.end, 12);
    assert.equal(body.segments[0]?.text, ' Segment 1 of the sandbox transcription of meeting.wav.');
    assert.equal(body.text, body.segments.map((s) => s.text).join('').trim());
  });

  it('model is optional; language, task=translate and initial_prompt are honoured', async () => {
    const r = await post(audioForm(makeWav(1), 'note.wav', { language: 'fr', task: 'translate', initial_prompt: 'Stratus, VM' }));
    const body = r.json as Transcription;
    assert.equal(body.language, 'fr');
    assert.equal(body.text, '[Stratus, VM] Segment 1 of the sandbox English translation of note.wav.');
    const explicit = await post(audioForm(makeWav(1), 'note.wav', { response_format: 'json', task: 'transcribe' }));
    assert.equal(explicit.status, 200);
  });

  it('detects mp3 (ID3 or frame sync) and m4a by content, whatever the file name', async () => {
    for (const [data, name] of [
      [MP3_ID3, 'a.bin'],
      [MP3_FRAME, 'b.mp3'],
      [M4A, 'c.m4a'],
    ] as const) {
      const r = await post(audioForm(data, name));
      assert.equal(r.status, 200, name);
    }
    // m4a: 48 KB at 16 000 B/s = ~3 s -> one segment ending near 3 s
    const m4a = (await post(audioForm(M4A, 'c.m4a'))).json as Transcription;
    assert.equal(m4a.segments.length, 1);
    assert.ok(Math.abs((m4a.segments[0]?.end ?? 0) - 3.003) < 0.01);
  });

  const bad: Array<[string, () => FormData, number, string]> = [
    ['a text file named .wav', () => audioForm(Buffer.from('hello, not audio'), 'fake.wav'), 400, 'file'],
    ['an empty file', () => audioForm(Buffer.alloc(0), 'empty.wav'), 400, 'file'],
    ['no file', () => {
      const f = new FormData();
      f.append('language', 'en');
      return f;
    }, 400, 'file'],
    ['response_format text', () => audioForm(makeWav(1), 'a.wav', { response_format: 'text' }), 400, 'response_format'],
    ['response_format srt', () => audioForm(makeWav(1), 'a.wav', { response_format: 'srt' }), 400, 'response_format'],
    ['response_format vtt', () => audioForm(makeWav(1), 'a.wav', { response_format: 'vtt' }), 400, 'response_format'],
    ['language not ISO 639-1', () => audioForm(makeWav(1), 'a.wav', { language: 'french' }), 400, 'language'],
    ['unknown task', () => audioForm(makeWav(1), 'a.wav', { task: 'summarize' }), 400, 'task'],
    ['a chat model', () => audioForm(makeWav(1), 'a.wav', { model: 'gpt-oss:120b' }), 400, 'model'],
    ['an unknown model', () => audioForm(makeWav(1), 'a.wav', { model: 'whisper-9' }), 404, 'model'],
  ];
  for (const [title, form, status, param] of bad) {
    it(`${status} param ${param}: ${title}`, async () => {
      const r = await post(form());
      assert.equal(r.status, status, r.text);
      const err = (r.json as ErrorEnvelope).error;
      assert.equal(err.param, param);
      assert.equal(err.type, 'invalid_request_error');
    });
  }

  it('a clear message for an unsupported response_format', async () => {
    const r = await post(audioForm(makeWav(1), 'a.wav', { response_format: 'verbose_json' }));
    assert.match((r.json as ErrorEnvelope).error.message, /only 'json'/);
  });

  it('a body that is not multipart, or malformed multipart, is a 400 param file', async () => {
    const json = await post(JSON.stringify({ file: 'x' }), { 'content-type': 'application/json' });
    assert.equal(json.status, 400);
    assert.equal((json.json as ErrorEnvelope).error.param, 'file');
    const broken = await post('--XYZ\r\nno headers', { 'content-type': 'multipart/form-data; boundary=XYZ' });
    assert.equal(broken.status, 400);
    assert.equal((broken.json as ErrorEnvelope).error.param, 'file');
  });
});

describe('sandbox inference: audio transcription, production profile', () => {
  const sb = useSandbox({ profile: 'production' });
  it('adds unknown extra fields (duration, task)', async () => {
    const r = await call(`${sb().inferenceUrl}/audio/transcriptions`, { method: 'POST', body: audioForm(makeWav(2), 'a.wav'), headers: { authorization: `Bearer ${sb().credentials.apiKey}` } });
    const body = r.json as Transcription;
    assert.equal(body.duration, 2);
    assert.equal(body.task, 'transcribe');
  });
});
