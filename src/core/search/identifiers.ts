/**
 * Identifier-aware tokenising, shared by the index and the query side so natural-language words
 * match code: `refreshAuthToken` and `refresh_auth_token` both give `refresh`, `auth`, `token`
 * (plus the whole identifier, so an exact name still matches best).
 */

/** English filler words of questions ("where do we ..."), never indexed nor searched. */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can do does did for from how i if in into is it its of on or so ' +
    'that the their then there these this those to was we were what when where which who why will ' +
    'with you your our us me my has have had get gets got any all also just not no'
  ).split(' '),
);

const WORD = /[A-Za-z0-9_$\u00C0-\uFFFF]+/g;
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z\u00C0-\uFFFF]+|[0-9]+/g;

/** A light, deterministic normalisation so "tokens" matches "token" and "retries" matches "retry". */
export function stem(word: string): string {
  const n = word.length;
  if (n > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (n > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** Splits one identifier into lower-cased words: camelCase, PascalCase, snake_case, kebab, digits. */
export function splitIdentifier(identifier: string): string[] {
  const parts: string[] = [];
  for (const piece of identifier.split(/[_$]+/)) {
    if (piece === '') continue;
    const matches = piece.match(PART);
    if (matches) for (const m of matches) parts.push(m.toLowerCase());
  }
  return parts;
}

function accept(term: string): boolean {
  return term.length > 1 && term.length <= 64 && !STOP_WORDS.has(term);
}

/**
 * Terms of a text, in order of appearance, duplicates kept: every word's parts (stemmed) and, for
 * a compound identifier, the whole identifier lower-cased.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const words = text.match(WORD);
  if (!words) return out;
  for (const word of words) {
    // Encoded blobs (base64, hashes, minified runs) are not words anyone searches for.
    if (word.length > 64) continue;
    const lower = word.toLowerCase();
    // Fast path: a plain lower-case word (most of prose and much of code).
    if (lower === word && !word.includes('_') && !word.includes('$')) {
      const s = stem(lower);
      if (accept(s)) out.push(s);
      continue;
    }
    const parts = splitIdentifier(word);
    if (parts.length > 1) {
      const whole = parts.join('');
      if (accept(whole)) out.push(whole);
    }
    for (const p of parts) {
      const s = stem(p);
      if (accept(s)) out.push(s);
    }
  }
  return out;
}

/** Distinct terms of a text (the index stores presence per chunk, which keeps building fast). */
export function distinctTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}
