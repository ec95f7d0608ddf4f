// The mocha grep for a host run: the user's STRATUS_HOST_GREP (a regular expression, as mocha takes
// it) and, for an install that cannot run some tests, a negative lookahead that leaves them out.

/** @param {string} text */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {string} userGrep STRATUS_HOST_GREP ('' = every test)
 * @param {string[]} excluded test titles (or title prefixes) to leave out
 * @returns {string} '' when nothing is filtered
 */
export function hostGrep(userGrep, excluded) {
  if (excluded.length === 0) return userGrep;
  const exclude = `(?![\\s\\S]*(?:${excluded.map(escape).join('|')}))`;
  return userGrep ? `^${exclude}(?=[\\s\\S]*(?:${userGrep}))` : `^${exclude}`;
}
