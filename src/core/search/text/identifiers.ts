/**
 * Identifier-aware tokenising, shared by the index and the query side so natural-language words
 * match code: `refreshAuthToken`, `refresh_auth_token` and `REFRESH_AUTH_TOKEN` all give
 * `refresh`, `auth`, `token`. A hand-written single pass over the text (no regular expressions,
 * no intermediate word arrays), which the indexer runs in WebAssembly (`forEachHashedPart`).
 */

/** English filler words of questions ("where do we ..."), never indexed nor searched. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can do does did for from how i if in into is it its of on or so ' +
    'that the their then there these this those to was we were what when where which who why will ' +
    'with you your our us me my has have had get gets got any all also just not no'
  ).split(' '),
);

/** Whether a lower-case word is filler ("where", "the"), never indexed nor searched. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Longer runs are data (base64, hashes, minified code), not words anyone searches for. */
export const MAX_WORD_LENGTH = 64;

/** A light, deterministic normalisation so "tokens" matches "token" and "retries" matches "retry". */
export function stem(word: string): string {
  const n = word.length;
  if (n > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (n > 3 && word.charCodeAt(n - 1) === 115 /* s */ && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

const SEP = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const NONE = -1;

function classOf(c: number): number {
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c === 95 || c === 36) return SEP; // _ $
  if (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && !(c >= 0x2000 && c <= 0x2bff) && !(c >= 0x3000 && c <= 0x303f) && !(c >= 0xd800 && c <= 0xdfff) && c !== 0xfeff) return LOWER;
  return NONE;
}

/** Part boundaries of the current word (reused: no allocation per word). */
const starts = new Int32Array(MAX_WORD_LENGTH + 1);
const ends = new Int32Array(MAX_WORD_LENGTH + 1);

/** The term of one raw word part (lower-cased, stemmed), or '' when it is filler or too short. */
export function normalizePart(part: string): string {
  if (part.length < 2) return '';
  const term = stem(part.toLowerCase());
  return term.length > 1 && !STOP_WORDS.has(term) ? term : '';
}

/**
 * Calls `emit` with every term of `text`, in order, duplicates kept: each word split into parts
 * (camelCase, PascalCase, acronyms, snake_case, digits), lower-cased, lightly stemmed, filler and
 * one-letter parts dropped.
 */
export function forEachTerm(text: string, emit: (term: string) => void): void {
  forEachPart(text, (part) => {
    const term = normalizePart(part);
    if (term !== '') emit(term);
  });
}

/** Calls `emit` with every raw part of every word (as written, at least 2 characters). */
export function forEachPart(text: string, emit: (part: string) => void): void {
  forEachPartRange(text, 0, text.length, (s, e) => emit(text.slice(s, e)));
}

/** Character classes of the ASCII range (the hot loop reads this table, not `classOf`). */
const ASCII_CLASS = new Int8Array(128);
for (let c = 0; c < 128; c++) ASCII_CLASS[c] = classOf(c);

/**
 * Calls `emit(start, end)` with the offsets of every raw part of every word of `text[from, to)`
 * (at least 2 characters; words longer than MAX_WORD_LENGTH are skipped whole). The query side's
 * view of the indexer's scanner (`forEachHashedPart`), so both split words the same way.
 */
export function forEachPartRange(text: string, from: number, to: number, emit: (start: number, end: number) => void): void {
  forEachHashedPart(text, from, to, { part: (start, end) => emit(start, end) });
}

/** FNV-1a over char codes: the first hash `forEachHashedPart` gives a part (exported for tests). */
export function partHash(text: string, start: number, end: number): number {
  let h = FNV_SEED;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * The second hash of a part, independent of the first (a multiply-add over char codes): the two
 * together (64 bits, with the length) stand for the part's characters in the indexer's part
 * table, which then never compares characters (exported for tests).
 */
export function partCheck(text: string, start: number, end: number): number {
  let g = 0;
  for (let i = start; i < end; i++) g = Math.imul((g + text.charCodeAt(i)) | 0, CHECK_PRIME);
  return g;
}

const FNV_SEED = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const CHECK_PRIME = 0x2f0b3a49;
const hashes = new Int32Array(MAX_WORD_LENGTH + 1);
const checks = new Int32Array(MAX_WORD_LENGTH + 1);

/** Receives the parts of `forEachHashedPart`. */
export interface PartSink {
  part(start: number, end: number, hash: number, check: number): void;
}

/**
 * Every part of every word of `text[from, to)`, with each part's `partHash` and `partCheck`
 * computed in the same pass over the characters (the query side reads the parts through
 * `forEachPartRange`). The indexer runs the same scan compiled to WebAssembly
 * (src/core/search/text/wasm/partScanner.ts), where it looks parts up by these hashes without making
 * strings or comparing characters: a change here is a change there (test/unit/search/
 * partScanner.test.ts checks that both give the same terms). The transitions are tested most
 * common first, and a run of ASCII lower-case letters (most of any code) is hashed in a loop of
 * its own.
 */
export function forEachHashedPart(text: string, from: number, to: number, sink: PartSink): void {
  let i = from;
  while (i < to) {
    let c = text.charCodeAt(i);
    let cls = c < 128 ? (ASCII_CLASS[c] as number) : classOf(c);
    if (cls === NONE) {
      i++;
      continue;
    }
    const wordStart = i;
    let parts = 0;
    let partStart = -1;
    let prev = SEP;
    let h = FNV_SEED;
    let g = 0;
    for (;;) {
      if (cls === prev) {
        if (partStart >= 0) {
          h = Math.imul(h ^ c, FNV_PRIME);
          g = Math.imul((g + c) | 0, CHECK_PRIME);
        }
      } else if (cls === SEP) {
        if (partStart >= 0) {
          if (parts <= MAX_WORD_LENGTH) {
            starts[parts] = partStart;
            hashes[parts] = h;
            checks[parts] = g;
            ends[parts++] = i;
          }
          partStart = -1;
        }
      } else if (partStart < 0) {
        partStart = i;
        h = Math.imul(FNV_SEED ^ c, FNV_PRIME);
        g = Math.imul(c, CHECK_PRIME);
      } else if (prev === UPPER && cls === LOWER) {
        // "HTTPServer": the last capital starts the next part.
        if (i - 1 > partStart) {
          if (parts <= MAX_WORD_LENGTH) {
            starts[parts] = partStart;
            hashes[parts] = partHash(text, partStart, i - 1);
            checks[parts] = partCheck(text, partStart, i - 1);
            ends[parts++] = i - 1;
          }
          partStart = i - 1;
          h = Math.imul(FNV_SEED ^ text.charCodeAt(i - 1), FNV_PRIME);
          g = Math.imul(text.charCodeAt(i - 1), CHECK_PRIME);
        }
        h = Math.imul(h ^ c, FNV_PRIME);
        g = Math.imul((g + c) | 0, CHECK_PRIME);
      } else {
        // lower -> upper, to or from a digit: a new part starts here.
        if (parts <= MAX_WORD_LENGTH) {
          starts[parts] = partStart;
          hashes[parts] = h;
          checks[parts] = g;
          ends[parts++] = i;
        }
        partStart = i;
        h = Math.imul(FNV_SEED ^ c, FNV_PRIME);
        g = Math.imul(c, CHECK_PRIME);
      }
      prev = cls;
      i++;
      if (cls === LOWER) {
        // The common case: the rest of a run of ASCII lower-case letters, hashed in a tight loop
        // (the two hashes are independent chains: they run side by side).
        while (i < to) {
          c = text.charCodeAt(i);
          if (c < 97 || c > 122) break;
          h = Math.imul(h ^ c, FNV_PRIME);
          g = Math.imul((g + c) | 0, CHECK_PRIME);
          i++;
        }
      }
      if (i >= to) break;
      c = text.charCodeAt(i);
      cls = c < 128 ? (ASCII_CLASS[c] as number) : classOf(c);
      if (cls === NONE) break;
    }
    if (partStart >= 0 && parts <= MAX_WORD_LENGTH) {
      starts[parts] = partStart;
      hashes[parts] = h;
      checks[parts] = g;
      ends[parts++] = i;
    }
    if (i - wordStart > MAX_WORD_LENGTH) continue;
    for (let k = 0; k < parts; k++) {
      const s = starts[k] as number;
      const e = ends[k] as number;
      if (e - s >= 2) sink.part(s, e, hashes[k] as number, checks[k] as number);
    }
  }
}

/** Splits one identifier into lower-cased words (unstemmed, nothing dropped). */
export function splitIdentifier(identifier: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = identifier.length;
  let partStart = -1;
  let prev = SEP;
  const cut = (end: number, next: number): void => {
    if (partStart >= 0 && end > partStart) out.push(identifier.slice(partStart, end).toLowerCase());
    partStart = next;
  };
  for (; i < n; i++) {
    const cls = classOf(identifier.charCodeAt(i));
    if (cls === SEP || cls === NONE) cut(i, -1);
    else if (partStart < 0) partStart = i;
    else if (prev === LOWER && cls === UPPER) cut(i, i);
    else if (prev === UPPER && cls === LOWER && i - 1 > partStart) cut(i - 1, i - 1);
    else if ((cls === DIGIT) !== (prev === DIGIT) && prev !== SEP && prev !== NONE) cut(i, i);
    prev = cls;
  }
  cut(n, -1);
  return out;
}

/** Every term of a text, in order, duplicates kept. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (t) => out.push(t));
  return out;
}

/** Distinct terms of a text. */
export function distinctTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}
