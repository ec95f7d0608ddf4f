import { pathPrior } from '../lexical/pathPriors';
import { exactName } from '../text/declarations';

/**
 * Workspace symbols fused with the index (issue 34): where a language server answers, its
 * definitions of an identifier are exact (it parsed the code), the index's are found by words.
 * For an identifier-like query, the definitions named exactly as the query come first (the index's
 * chunk that holds one when it has it, else a place made from the symbol), then the index's order.
 * A definition in a demoted path (test fixture, vendored copy, generated file) is not lifted: the
 * language server indexes those too, and they are what the path priors keep down. Nor is one in a
 * file the index did not answer with: the provider does not know .gitignore, `files.exclude` or
 * the size cap, and a file left out of the index must not come back through it.
 */

/** One definition a symbol provider answered (workspace-relative path, 1-based inclusive lines). */
export interface SymbolDefinition {
  name: string;
  path: string;
  startLine: number;
  endLine: number;
}

/** Definitions lifted at most (overloads and re-declarations beyond these keep the index's place). */
export const MAX_LIFTED_DEFINITIONS = 5;

/**
 * Whether the query is one identifier a symbol provider can answer: one word of identifier
 * characters with the shape of a name (a capital, `_`, `$` or a digit in it, as `mergeMap`,
 * `NewThing`, `arr_remove`), not a plain word the index answers as well as any provider.
 */
export function isIdentifierQuery(query: string): boolean {
  const q = query.trim();
  if (q.length < 3 || q.length > 200 || !/^[A-Za-z_$][\w$]*$/.test(q)) return false;
  return /[A-Z_$\d]/.test(q);
}

/** The place type the caller ranks: a path and its lines. */
export interface RankedPlace {
  path: string;
  startLine: number;
  endLine: number;
}

/**
 * A symbol's own name as providers spell it: a method can come as `Client.Do` (qualified by its
 * type or package) or `foo(int)` (with its parameters, as Java's and C#'s servers answer).
 */
export function symbolOwnName(name: string): string {
  const bare = name.replace(/\(.*$/s, '').trim();
  const dot = bare.lastIndexOf('.');
  return dot >= 0 ? bare.slice(dot + 1) : bare;
}

/** The definitions named exactly as the query (in any spelling: `NewThing`, `new_thing`). */
export function exactDefinitions(query: string, definitions: readonly SymbolDefinition[]): SymbolDefinition[] {
  const wanted = exactName(query.trim());
  return definitions.filter((d) => exactName(symbolOwnName(d.name)) === wanted);
}

/**
 * The index's `hits` with the query's exact definitions first (see above); `place` makes a hit
 * for a definition in a chunk the index did not return (of a file it did). Returns at most `limit` hits; the index's order
 * alone when no definition matches. `demoted`: the files the index demotes beyond their path (the
 * user's globs, a generated header), whose definitions are not lifted either.
 */
export function fuseSymbolDefinitions<H extends RankedPlace>(query: string, hits: readonly H[], definitions: readonly SymbolDefinition[], place: (d: SymbolDefinition) => H, limit: number, demoted?: (path: string) => boolean): H[] {
  if (!isIdentifierQuery(query)) return hits.slice(0, limit);
  const lifted: H[] = [];
  const taken = new Set<H>();
  for (const d of exactDefinitions(query, definitions)) {
    if (lifted.length >= MAX_LIFTED_DEFINITIONS) break;
    if (pathPrior(d.path, false, demoted) < 1 || !hits.some((h) => h.path === d.path)) continue;
    const held = hits.find((h) => h.path === d.path && h.startLine <= d.startLine && d.startLine <= h.endLine);
    if (held && taken.has(held)) continue; // two definitions in one chunk: it is lifted once
    if (!held && lifted.some((h) => h.path === d.path && h.startLine <= d.startLine && d.startLine <= h.endLine)) continue;
    const hit = held ?? place(d);
    taken.add(hit);
    lifted.push(hit);
  }
  if (lifted.length === 0) return hits.slice(0, limit);
  return [...lifted, ...hits.filter((h) => !taken.has(h))].slice(0, limit);
}
