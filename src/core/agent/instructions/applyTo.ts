import ignore from 'ignore';
import { expandBraces } from '../../workspace/ignoreRules';

/**
 * `applyTo` of a `.github/instructions/*.instructions.md` file: one glob or a comma-separated list
 * (commas inside `{a,b}` belong to the glob), or a YAML list of globs. Matched against
 * workspace-relative paths with `/` separators, through the `ignore` package already used by search:
 *  - a pattern starting with `/` is anchored at the workspace root (`/src/**`);
 *  - any other pattern matches at any depth (`*.ts`, `src/**` and `**\/*.ts` all match `a/src/x.ts`
 *    and `x.ts` as a reader of the front matter would expect);
 *  - `**`, `*`, `?`, `[...]` and `{a,b}` as in VS Code globs; a pattern naming a folder matches the
 *    files below it; `!` and `#` at the start are taken literally (no negation, no comments).
 */

/** Splits on commas outside braces; trims; drops empties. */
export function splitApplyTo(value: string | readonly string[]): string[] {
  const items = typeof value === 'string' ? [value] : value;
  const out: string[] = [];
  for (const item of items) {
    let depth = 0;
    let from = 0;
    for (let i = 0; i <= item.length; i++) {
      const c = item[i];
      if (c === '{') depth++;
      else if (c === '}') depth = Math.max(0, depth - 1);
      else if (i === item.length || (c === ',' && depth === 0)) {
        const part = item.slice(from, i).trim();
        if (part !== '') out.push(part);
        from = i + 1;
      }
    }
  }
  return out;
}

function toRules(pattern: string): string[] {
  return expandBraces(pattern.replace(/\\/g, '/'))
    .map((p) => p.trim().replace(/^\.\//, ''))
    .filter((p) => p !== '')
    .map((p) => {
      const literalStart = /^[!#]/.test(p) ? `\\${p}` : p;
      if (literalStart.startsWith('/') || literalStart.startsWith('**')) return literalStart;
      return `**/${literalStart}`;
    });
}

export type PathMatcher = (relativePath: string) => boolean;

/** A matcher for the given `applyTo` value; matches nothing when it holds no pattern. */
export function applyToMatcher(value: string | readonly string[]): PathMatcher {
  const rules = splitApplyTo(value).flatMap(toRules);
  if (rules.length === 0) return () => false;
  const matcher = ignore({ allowRelativePaths: true }).add(rules);
  return (relativePath) => {
    const path = relativePath.replace(/\\/g, '/').replace(/^\.?\/+/, '');
    if (path === '' || path.split('/').includes('..')) return false;
    return matcher.ignores(path);
  };
}
