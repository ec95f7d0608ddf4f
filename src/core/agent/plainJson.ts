/**
 * The run-command tool's arguments must be plain JSON values and nothing else. VS Code revives
 * objects with a `$mid` key into URIs, regular expressions, Markdown strings and other objects
 * when a command's arguments cross a process boundary, and objects that are not plain (or keys
 * such as `__proto__`) can change what a command receives. An allowlist of shapes, not a denylist
 * of tricks: strings, finite numbers, booleans, null, arrays and plain objects of those, bounded
 * in depth, count and length.
 */

export interface PlainJsonLimits {
  /** Deepest nesting of arrays and objects (the top-level argument list is depth 0). */
  readonly maxDepth: number;
  /** Most values in all (every array item, property and scalar counts one). */
  readonly maxValues: number;
  /** Longest string (keys included), in UTF-16 code units. */
  readonly maxStringLength: number;
}

export const PLAIN_JSON_LIMITS: PlainJsonLimits = { maxDepth: 8, maxValues: 2000, maxStringLength: 20_000 };

/**
 * Keys refused in any object. `$mid` is how VS Code marks objects to revive; the others reach
 * or shadow the prototype chain. Other keys starting with `$` are refused too, except the tool's
 * own `$uri` and `$position`, which it converts itself after this check.
 */
const FORBIDDEN_KEYS = new Set(['$mid', '__proto__', 'constructor', 'prototype']);
const OWN_DOLLAR_KEYS = new Set(['$uri', '$position']);

export type PlainJsonCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isPlainArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

/** Whether `value` is plain JSON within `limits`; otherwise a sentence naming where and why not. */
export function checkPlainJson(value: unknown, limits: PlainJsonLimits = PLAIN_JSON_LIMITS): PlainJsonCheck {
  let count = 0;
  const visit = (node: unknown, depth: number, where: string): string | undefined => {
    if (++count > limits.maxValues) return `the arguments hold more than ${limits.maxValues} values`;
    switch (typeof node) {
      case 'string':
        return node.length > limits.maxStringLength ? `${where} is a string longer than ${limits.maxStringLength} characters` : undefined;
      case 'boolean':
        return undefined;
      case 'number':
        return Number.isFinite(node) ? undefined : `${where} is not a finite number`;
      case 'object':
        break;
      default:
        return `${where} is ${typeof node === 'undefined' ? 'undefined' : `a ${typeof node}`}, not a JSON value`;
    }
    if (node === null) return undefined;
    if (depth >= limits.maxDepth) return `${where} is nested more than ${limits.maxDepth} levels deep`;
    if (Object.getOwnPropertySymbols(node).length > 0) return `${where} has symbol keys`;
    if (Array.isArray(node)) {
      if (!isPlainArray(node)) return `${where} is not a plain array`;
      const keys = Object.keys(node);
      if (keys.length !== node.length) return `${where} is an array with holes or extra properties`;
      for (let i = 0; i < node.length; i++) {
        const found = visit(node[i], depth + 1, `${where}[${i}]`);
        if (found) return found;
      }
      return undefined;
    }
    if (!isPlainObject(node)) return `${where} is not a plain object`;
    const descriptors = Object.getOwnPropertyDescriptors(node);
    for (const key of Object.keys(descriptors)) {
      const label = `${where}.${JSON.stringify(key).slice(0, 60)}`;
      if (FORBIDDEN_KEYS.has(key) || (key.startsWith('$') && !OWN_DOLLAR_KEYS.has(key))) return `${where} has the key ${JSON.stringify(key)}, which VS Code or JavaScript treats specially`;
      if (key.length > limits.maxStringLength) return `${where} has a key longer than ${limits.maxStringLength} characters`;
      const descriptor = descriptors[key];
      if (!descriptor || !('value' in descriptor) || descriptor.get || descriptor.set) return `${label} is an accessor, not a value`;
      const found = visit(descriptor.value, depth + 1, label);
      if (found) return found;
    }
    return undefined;
  };
  const reason = visit(value, 0, 'the arguments');
  return reason ? { ok: false, reason } : { ok: true };
}
