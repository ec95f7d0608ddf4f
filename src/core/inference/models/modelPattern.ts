/**
 * Settings keyed by model id or glob (`qwen3*`, `*:120b`, `*`): which keys apply to a model and in
 * what order. `*` matches any run of characters, `?` one; matching ignores case. An exact id is the
 * most specific; among globs, the one with more literal characters is.
 */

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

function isGlob(key: string): boolean {
  return key.includes('*') || key.includes('?');
}

/** Whether `key` (an id or a glob) names `modelId`. */
export function matchesModel(key: string, modelId: string): boolean {
  return isGlob(key) ? globToRegExp(key).test(modelId) : key.toLowerCase() === modelId.toLowerCase();
}

function specificity(key: string): number {
  // Exact ids above every glob; globs by their literal characters.
  return isGlob(key) ? key.replace(/[*?]/g, '').length : Number.MAX_SAFE_INTEGER;
}

/**
 * The values whose key names `modelId`, least specific first, so a caller merging them in order
 * lets the most specific win. Ties keep the setting's order.
 */
export function matchingValues<T>(table: Readonly<Record<string, T>>, modelId: string): T[] {
  return Object.entries(table)
    .filter(([key]) => matchesModel(key, modelId))
    .map(([key, value], index) => ({ value, rank: specificity(key), index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.value);
}

/** The most specific value for `modelId`, or undefined. */
export function mostSpecific<T>(table: Readonly<Record<string, T>>, modelId: string): T | undefined {
  const values = matchingValues(table, modelId);
  return values[values.length - 1];
}
