import assert from 'node:assert/strict';
import { formatTimestamp, toSrt, toWebVtt, wrapLines } from '../../../src/core/inference/transcription/subtitles';

describe('transcription: SRT and WebVTT', () => {
  describe('timestamps', () => {
    it('uses a comma for SRT and a dot for WebVTT, with milliseconds', () => {
      assert.equal(formatTimestamp(1.5, ','), '00:00:01,500');
      assert.equal(formatTimestamp(1.5, '.'), '00:00:01.500');
      assert.equal(formatTimestamp(0.007, ','), '00:00:00,007');
    });

    it('carries minutes and hours, and keeps going past 99 hours', () => {
      assert.equal(formatTimestamp(61.25, ','), '00:01:01,250');
      assert.equal(formatTimestamp(3600, '.'), '01:00:00.000');
      assert.equal(formatTimestamp(3 * 3600 + 25 * 60 + 7.089, ','), '03:25:07,089');
      assert.equal(formatTimestamp(100 * 3600 + 1, '.'), '100:00:01.000');
    });

    it('rounds to the millisecond, carrying into the next second', () => {
      assert.equal(formatTimestamp(59.9996, ','), '00:01:00,000');
      assert.equal(formatTimestamp(2.0004, ','), '00:00:02,000');
      assert.equal(formatTimestamp(0.1 + 0.2, '.'), '00:00:00.300');
    });

    it('clamps negative, NaN and infinite times to zero', () => {
      for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(formatTimestamp(bad, ','), '00:00:00,000');
    });
  });

  describe('line wrapping', () => {
    it('packs words into lines of at most the limit', () => {
      const lines = wrapLines('The quick brown fox jumps over the lazy dog and keeps running far away', 20);
      assert.deepEqual(lines, ['The quick brown fox', 'jumps over the lazy', 'dog and keeps', 'running far away']);
      assert.ok(lines.every((l) => l.length <= 20));
    });

    it('keeps a word longer than the limit whole, and collapses whitespace and newlines', () => {
      assert.deepEqual(wrapLines('a supercalifragilistic b', 10), ['a', 'supercalifragilistic', 'b']);
      assert.deepEqual(wrapLines('  one\n\ntwo\tthree  ', 42), ['one two three']);
      assert.deepEqual(wrapLines('   ', 42), []);
    });
  });

  const segments = [
    { start: 0, end: 2.5, text: ' Hello there.' },
    { start: 2.5, end: 3661.042, text: ' A much longer sentence that certainly needs more than one line of subtitles.' },
  ];

  it('SRT: numbered cues, comma timestamps, wrapped lines, blank line between cues', () => {
    assert.equal(
      toSrt(segments),
      '1\n00:00:00,000 --> 00:00:02,500\nHello there.\n\n' +
        '2\n00:00:02,500 --> 01:01:01,042\nA much longer sentence that certainly\nneeds more than one line of subtitles.\n',
    );
  });

  it('WebVTT: header, dot timestamps, same cues', () => {
    assert.equal(
      toWebVtt(segments),
      'WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.500\nHello there.\n\n' +
        '2\n00:00:02.500 --> 01:01:01.042\nA much longer sentence that certainly\nneeds more than one line of subtitles.\n',
    );
  });

  it('skips empty segments and renumbers; no segments gives an empty SRT and a bare WebVTT header', () => {
    const withEmpty = [{ start: 0, end: 1, text: '  ' }, { start: 1, end: 2, text: 'Only this.' }, { start: 2, end: 3, text: '' }];
    assert.equal(toSrt(withEmpty), '1\n00:00:01,000 --> 00:00:02,000\nOnly this.\n');
    assert.equal(toWebVtt(withEmpty), 'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nOnly this.\n');
    assert.equal(toSrt([]), '');
    assert.equal(toWebVtt([]), 'WEBVTT\n');
  });

  it('orders cues by start time and never lets a cue end before it starts', () => {
    const srt = toSrt([{ start: 5, end: 6, text: 'second' }, { start: 1, end: 0.5, text: 'first' }]);
    assert.equal(srt, '1\n00:00:01,000 --> 00:00:01,000\nfirst\n\n2\n00:00:05,000 --> 00:00:06,000\nsecond\n');
  });

  it('WebVTT escapes &, < and > so text cannot open a tag or fake a timing arrow; SRT keeps the text', () => {
    const tricky = [{ start: 0, end: 1, text: 'A <b> & B --> C' }];
    assert.match(toWebVtt(tricky), /\nA &lt;b&gt; &amp; B --&gt; C\n$/);
    assert.match(toSrt(tricky), /\nA <b> & B --> C\n$/);
  });

  it('honours a custom line length', () => {
    assert.equal(toSrt([{ start: 0, end: 1, text: 'one two three' }], { maxLineLength: 7 }), '1\n00:00:00,000 --> 00:00:01,000\none two\nthree\n');
  });
});
