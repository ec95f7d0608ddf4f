// Counterexamples found by the property suite (test/unit/properties), kept as plain examples.
import assert from 'node:assert/strict';
import { formatTimestamp } from '../../../src/core/inference/transcription/subtitles';

describe('subtitles found by fuzzing', () => {
  it('a time of 3.6e24 s is still written as digits, not 1e+21 hours', () => {
    assert.match(formatTimestamp(3.6e24, ','), /^\d{2,}:[0-5]\d:[0-5]\d,\d{3}$/);
    assert.match(formatTimestamp(3.6e24, '.'), /^\d{2,}:[0-5]\d:[0-5]\d\.\d{3}$/);
  });

});
