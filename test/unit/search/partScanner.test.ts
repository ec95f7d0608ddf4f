// The index side's WebAssembly part scanner (src/core/search/text/wasm/partScanner.ts, through
// TermCounter) against the query side's JavaScript tokenizer: the same terms, counted the same,
// whatever the text; and the scanner's memory growing (long texts, many distinct parts).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { tokenize } from '../../../src/core/search/text/identifiers';
import { TermCounter } from '../../../src/core/search/text/termCounter';
import { check } from '../properties/harness';

/** Counts the terms of `text[from, to)` through the counter (terms by name). */
function counted(counter: TermCounter, names: string[], text: string, id: number, from = 0, to = text.length): Map<string, number> {
  counter.begin(text, id);
  counter.scan(from, to);
  const out = new Map<string, number>();
  for (let k = 0; k < counter.distinct; k++) {
    const t = counter.terms[k] ?? 0;
    out.set(names[t] ?? '?', counter.tf[t] ?? 0);
  }
  return out;
}

function expected(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const term of tokenize(text)) out.set(term, (out.get(term) ?? 0) + 1);
  return out;
}

function counterWithNames(): { counter: TermCounter; names: string[] } {
  const names: string[] = [];
  const ids = new Map<string, number>();
  const counter = new TermCounter((term) => {
    let t = ids.get(term);
    if (t === undefined) {
      t = names.length;
      names.push(term);
      ids.set(term, t);
    }
    return t;
  });
  return { counter, names };
}

/** Characters at every kind of boundary: cases, digits, `_`/`$`, non-ASCII letters and the excluded ranges, a lone surrogate. */
const PIECES = ['a', 'b', 'z', 'A', 'B', 'Z', '0', '9', '_', '$', ' ', '\n', '.', '(', 'é', 'ß', '×', '÷', '—', '\u3000', '\ufeff', '\ud83d', '🙂', '\ufffd', 'Ω', 'http', 'Server', 'HTTP', 'getX', 'id2', 'tokens', 'the', 'ies'];

describe('search: the WebAssembly part scanner', () => {
  it('counts the terms the query side tokenizes, for any text (one counter across texts, as a build uses it)', () => {
    const { counter, names } = counterWithNames();
    let id = 1;
    check(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 200 }), (pieces) => {
        const text = pieces.join('');
        assert.deepEqual(counted(counter, names, text, id++), expected(text), JSON.stringify(text));
      }),
      300,
    );
  });

  it('counts a range of a text as the query side tokenizes that range; words over 64 characters go whole', () => {
    const { counter, names } = counterWithNames();
    const text = `getHTTPResponse2XXCode ${'Ab'.repeat(33)} déjàVu refreshAuthTokens x×yz lastWord`;
    assert.deepEqual(counted(counter, names, text, 1), expected(text));
    assert.deepEqual(counted(counter, names, text, 2, 3, 30), expected(text.slice(3, 30)));
    assert.ok(!counted(counter, names, text, 3).has('ab'), 'the 66-character word is not indexed');
  });

  it('grows its memory: a long text after a short one, and tens of thousands of distinct parts, keep their counts', () => {
    const { counter, names } = counterWithNames();
    assert.deepEqual(counted(counter, names, 'small text', 1), expected('small text'));
    // 40,000 distinct words (the part table starts at 32,768 slots) in a text of ~600,000 characters.
    const words = Array.from({ length: 40_000 }, (_, i) => `w${i.toString(36)}q${(i * 7919).toString(36)}`);
    const text = `${words.join(' ')} ${words.slice(0, 1000).join(' ')}`;
    assert.deepEqual(counted(counter, names, text, 2), expected(text));
    // After a reset (the terms renumbered) the parts are looked up again.
    counter.reset(names.length);
    assert.deepEqual(counted(counter, names, 'small text again', 3), expected('small text again'));
  });
});
