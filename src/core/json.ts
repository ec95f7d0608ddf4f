/**
 * The one set of narrowing helpers for untyped JSON (read off the wire, from disk, or handed over
 * by a model): they never throw on an unexpected shape, and unknown fields are ignored. Variants
 * that differ on purpose say how in their names (`numOrNumericString` also reads `"42"`).
 */

export type JsonRecord = Record<string, unknown>;

/** A plain JSON object: not null, not an array. */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string, the empty string included. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string, or any number as its text (error envelopes, JWT claims). */
export function nonEmptyStrOrNumber(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/**
 * A string with more than white space in it (returned as sent, not trimmed), or a finite number
 * as its text: names, ids and display values of console resources.
 */
export function nonBlankText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A finite number (a numeric string is not one). */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A finite number, also from a numeric string that is not blank (`"42"`, `" 1e3 "`). */
export function numOrNumericString(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** An array, or an empty one for anything else. */
export function arr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

// The keys of each dotted path, split once: the paths are a few fixed strings of the catalog and
// the compact views, read for every field of every record of a list (issue 43).
const PATH_KEYS = new Map<string, readonly string[]>();
const MAX_CACHED_PATHS = 1024;

function pathKeys(path: string): readonly string[] {
  let keys = PATH_KEYS.get(path);
  if (keys === undefined) {
    keys = path.split('.');
    if (PATH_KEYS.size < MAX_CACHED_PATHS) PATH_KEYS.set(path, keys);
  }
  return keys;
}

/** The value at a dotted path (`operatingSystem.name`), or undefined. */
export function at(value: unknown, path: string): unknown {
  let current: unknown = value;
  const keys = pathKeys(path);
  for (let i = 0; i < keys.length; i++) {
    if (!isRecord(current)) return undefined;
    current = current[keys[i] as string];
  }
  return current;
}
