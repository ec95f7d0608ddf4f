import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatTimestamp, toSrt, toWebVtt, wrapLines } from '../../../src/core/inference/transcription/subtitles';
import { check, weirdNumber, weirdString } from './harness';

// Subtitle files are written from segments the service sent: any times, any text.

const SRT_TIME = /^\d{2,}:[0-5]\d:[0-5]\d,\d{3}$/;
const VTT_TIME = /^\d{2,}:[0-5]\d:[0-5]\d\.\d{3}$/;
const time = fc.oneof(weirdNumber, fc.constantFrom(Number.NaN, Infinity, -Infinity, 59.9996, 3599.9995, 1e-7));
const segment = fc.record({ start: time, end: time, text: fc.oneof(weirdString, fc.string({ maxLength: 60 }), fc.constantFrom('a --> b', '<b>x</b> & y', '\n\n', '1\n00:00:01,000 --> 00:00:02,000')) });

/** Parses an SRT or WebVTT body back into cues; fails on any line out of place. */
function cues(text: string, vtt: boolean): Array<{ start: string; end: string; lines: string[] }> {
  const body = vtt ? text.replace(/^WEBVTT\n\n?/, '') : text;
  if (body === '') return [];
  const out: Array<{ start: string; end: string; lines: string[] }> = [];
  for (const block of body.replace(/\n$/, '').split('\n\n')) {
    const [index, timing, ...lines] = block.split('\n');
    assert.equal(index, String(out.length + 1), `cue number in ${JSON.stringify(block)}`);
    const m = /^(\S+) --> (\S+)$/.exec(timing ?? '');
    assert.ok(m, `timing line ${JSON.stringify(timing)}`);
    // SRT keeps the text as said (subtitles.test.ts), arrows included; WebVTT escapes them.
    assert.ok(lines.length > 0 && lines.every((l) => l.trim() !== '' && (!vtt || !l.includes('-->'))), `cue text ${JSON.stringify(lines)}`);
    out.push({ start: m[1] as string, end: m[2] as string, lines });
  }
  return out;
}

describe('properties: subtitle timestamps and files', () => {
  it('a timestamp is always hh:mm:ss plus milliseconds, whatever the number', () => {
    check(
      fc.property(time, (seconds) => {
        assert.match(formatTimestamp(seconds, ','), SRT_TIME);
        assert.match(formatTimestamp(seconds, '.'), VTT_TIME);
      }),
      500,
    );
  });

  it('SRT and WebVTT of any segments parse back: numbered cues, well-formed times, end not before start, no stray timing arrow in WebVTT', () => {
    check(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.oneof(fc.integer({ min: -5, max: 80 }), weirdNumber), (segments, max) => {
        for (const vtt of [false, true]) {
          const text = vtt ? toWebVtt(segments, { maxLineLength: max }) : toSrt(segments, { maxLineLength: max });
          if (vtt) assert.ok(text.startsWith('WEBVTT\n'));
          for (const cue of cues(text, vtt)) {
            assert.match(cue.start, vtt ? VTT_TIME : SRT_TIME);
            assert.match(cue.end, vtt ? VTT_TIME : SRT_TIME);
            assert.ok(cue.end >= cue.start || cue.end.length > cue.start.length, `${cue.start} --> ${cue.end}`);
          }
        }
      }),
      300,
    );
  });

  it('wrapping keeps every word, in order, whatever the line length asked for', () => {
    check(
      fc.property(fc.string({ maxLength: 80 }), fc.oneof(fc.integer({ min: -3, max: 50 }), weirdNumber), (text, max) => {
        const lines = wrapLines(text, max);
        assert.deepEqual(lines.join(' ').split(/\s+/).filter(Boolean), text.split(/\s+/).filter(Boolean));
      }),
      300,
    );
  });
});
