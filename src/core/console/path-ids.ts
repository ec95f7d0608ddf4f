/**
 * The one check of every id placed in a URL path (DESIGN "One door per risk"): resource ids, the
 * activity id of a `Location` header, session claims. `encodeURIComponent` keeps `.` and `..`, so
 * an id of `..` would leave its collection (`DELETE .../virtual-machines/..` is `DELETE .../v1/`);
 * a server or proxy that decodes twice would also act on `%2e%2e` or `a%2Fb`.
 */
import { UnsafePathIdError } from '../errors';

const MAX_ID_LENGTH = 512;
// C0, DEL and C1 controls, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const SEPARATOR = /[/\\]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_DECODES = 4;

/** The value and what it decodes to (percent-decoding repeated, then NFKC), each checked alike. */
function forms(value: string): string[] {
  const out = [value];
  let current = value;
  for (let i = 0; i < MAX_DECODES; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      break;
    }
    if (next === current) break;
    out.push(next);
    current = next;
  }
  for (const form of [...out]) {
    const folded = form.normalize('NFKC');
    if (folded !== form) out.push(folded);
  }
  return out;
}

/** Why `value` cannot be a path segment, or undefined when it is safe. */
export function pathIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'is not a string';
  if (value.length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters`;
  for (const form of forms(value)) {
    if (form.trim() === '') return 'is empty';
    if (form !== form.trim()) return 'starts or ends with white space';
    if (form === '.' || form === '..') return 'is a "." or ".." path segment';
    if (SEPARATOR.test(form)) return 'contains a path separator';
    if (CONTROL.test(form)) return 'contains control characters';
    if (LONE_SURROGATE.test(form)) return 'is not well-formed Unicode';
  }
  return undefined;
}

/** A short, printable rendering of a refused id for messages (never its raw control characters). */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Throws UnsafePathIdError unless `value` is safe to place in a URL path; returns it otherwise. */
export function checkPathId(value: unknown, param = 'id', what = 'id'): string {
  const problem = pathIdProblem(value);
  if (problem !== undefined) {
    throw new UnsafePathIdError(`The ${what} ${shown(value)} ${problem}: it cannot be placed in a request path`, param);
  }
  return value as string;
}
