import { declarationsIn, EXACT_WEIGHT_COMPOUND, exactQueryTerms, fileNameTermOf, nameBucket } from '../text/declarations';
import { forEachTerm, isStopWord } from '../text/identifiers';
import type { ChunkSpan } from '../text/chunkScan';
import { GENERATED_TERM, hasGeneratedHeader } from '../text/generatedHeader';
import { declaredPairTerms } from './declaredPairs';
import { addDeclaredParts, DECLARED_FORM_WEIGHT, declaredFormTerms } from './declaredParts';

export { GENERATED_TERM };

/**
 * The exact-name terms of the index (text/declarations.ts) as the lexical index adds and asks
 * for them: per chunk, the names it declares; per file, its name; per query, the words' parts
 * (weight 1) and their exact names (weighted).
 */

/** What a span of a file's text declares: its names' buckets, and the distinct terms of those names' parts (declaredParts.ts). */
export interface SpanDeclarations {
  buckets: number[];
  parts: Set<string>;
}

/**
 * What each span of a file's text declares (one pass over the text), undefined for a span that
 * declares nothing; the index turns a bucket into its term (`=` and the bucket) and a part into
 * its declared-part term (`~` and the part).
 */
export function declarationsBySpan(text: string, spans: readonly ChunkSpan[]): Array<SpanDeclarations | undefined> {
  const found = declarationsIn(text);
  const out: Array<SpanDeclarations | undefined> = [];
  let k = 0;
  for (const span of spans) {
    while (k < found.length && (found[k]?.[0] ?? 0) < span.start) k++;
    let decl: SpanDeclarations | undefined;
    for (let j = k; j < found.length && (found[j]?.[0] ?? 0) < span.end; j++) {
      const name = found[j]?.[1] ?? '';
      decl ??= { buckets: [], parts: new Set() };
      decl.buckets.push(nameBucket(name));
      addDeclaredParts(name, decl.parts);
    }
    out.push(decl);
  }
  return out;
}

/** The terms every chunk of a file carries: its path's words, its file-name term, and the generated mark when its header has one. */
export function pathTermsOf(path: string, text = ''): string[] {
  const out = new Set<string>();
  forEachTerm(path, (t) => out.add(t));
  const fileName = fileNameTermOf(path);
  if (fileName) out.add(fileName);
  if (hasGeneratedHeader(text)) out.add(GENERATED_TERM);
  return [...out];
}

/** The ids of `hits` found in the generated mark's (or another term's) posting lists (a scan: the lists need not be sorted). */
export function generatedAmong(hits: ReadonlyArray<{ id: number }>, lists: ReadonlyArray<ArrayLike<number> | undefined>, tfBits: number): Set<number> {
  const out = new Set<number>();
  if (hits.length === 0) return out;
  const wanted = new Set(hits.map((h) => h.id));
  for (const list of lists) {
    if (!list) continue;
    for (let i = 0; i < list.length; i++) {
      const id = (list[i] ?? 0) >>> tfBits;
      if (wanted.has(id)) out.add(id);
    }
  }
  return out;
}

/**
 * The ids of `hits` that declare a compound identifier the query asks for (`newHTTP2Client`): a
 * scan of those declaration terms' lists (path priors do not demote such a hit as vendored).
 */
export function declaringAmong(hits: ReadonlyArray<{ id: number }>, query: string, lists: (term: string) => ReadonlyArray<ArrayLike<number> | undefined>, tfBits: number): Set<number> {
  const out = new Set<number>();
  for (const [term, weight] of exactQueryTerms(query, isStopWord)) {
    if (weight === EXACT_WEIGHT_COMPOUND && term.startsWith('=')) for (const id of generatedAmong(hits, lists(term), tfBits)) out.add(id);
  }
  return out;
}

/** A query term: its weight, and whether it only adds to chunks its other terms found. */
export interface QueryTerm {
  term: string;
  weight: number;
  boostOnly: boolean;
  /** When given, its idf is this term's when that is lower (a form's mark and the form as a plain word, declaredParts.ts). */
  idfTerm?: string;
}

/**
 * A query's terms: the parts of its words (weight 1), then their exact names, which only boost a
 * chunk the parts found: an exact-name term is a bucket shared by a few names (declarations.ts),
 * and a chunk that holds none of the query's words is no answer, whatever its bucket; then the
 * names made of two adjacent words (declaredPairs.ts), boosting the same way; then the declared-part
 * marks of the words' other forms (declaredParts.ts), boosting the same way. Each term once, at
 * its highest weight.
 */
export function queryTerms(query: string): QueryTerm[] {
  const out = new Map<string, QueryTerm>();
  forEachTerm(query, (term) => out.set(term, { term, weight: 1, boostOnly: false }));
  if (out.size === 0) return [];
  const add = (q: QueryTerm): void => {
    const before = out.get(q.term);
    if (!before) out.set(q.term, q);
    else if (before.weight < q.weight) out.set(q.term, { term: q.term, weight: q.weight, boostOnly: before.boostOnly && q.boostOnly });
  };
  for (const [term, weight] of exactQueryTerms(query, isStopWord)) add({ term, weight, boostOnly: true });
  for (const [term, weight] of declaredPairTerms(query)) add({ term, weight, boostOnly: true });
  const words = [...out.values()].filter((q) => q.weight === 1 && !q.boostOnly).map((q) => q.term);
  for (const { term, plain } of declaredFormTerms(words)) if (!out.has(term)) out.set(term, { term, weight: DECLARED_FORM_WEIGHT, boostOnly: true, idfTerm: plain });
  return [...out.values()];
}
