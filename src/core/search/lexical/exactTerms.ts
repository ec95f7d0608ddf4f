import { declarationsIn, EXACT_WEIGHT_COMPOUND, exactQueryTerms, fileNameTermOf, nameBucket } from '../text/declarations';
import { forEachTerm, isStopWord } from '../text/identifiers';
import type { ChunkSpan } from '../text/chunkScan';
import { GENERATED_TERM, hasGeneratedHeader } from '../text/generatedHeader';
import { declaredPairTerms } from './declaredPairs';
import { DECLARED_FORM_WEIGHT, declaredFormTerms } from './declaredParts';

export { GENERATED_TERM };

/**
 * The exact-name terms of the index (text/declarations.ts) as the lexical index adds and asks
 * for them: per chunk, the names it declares; per file, its name; per query, the words' parts
 * (weight 1) and their exact names (weighted).
 */

/**
 * What a file's text declares, span by span, in flat arrays (no object, array or set per span):
 * declaration k has its name's bucket `buckets[k]` and its name's characters at
 * `text[starts[k], ends[k])`; span j declares k in `[from[j], to[j])` (none when equal).
 */
export interface FileDeclarations {
  buckets: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  from: Int32Array;
  to: Int32Array;
}

/**
 * What each span of a file's text declares (one pass over the text): the index turns a bucket
 * into its term (`=` and the bucket) and each part of a name of two parts or more into its
 * declared-part mark (`~` and the part, declaredParts.ts), scanning the name's characters.
 */
export function declarationsBySpan(text: string, spans: readonly ChunkSpan[]): FileDeclarations {
  const found = declarationsIn(text);
  const n = found.length;
  const buckets = new Int32Array(n);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const d = found[k];
    const name = d?.[1] ?? '';
    const at = d?.[2] ?? 0;
    buckets[k] = nameBucket(name);
    starts[k] = at;
    ends[k] = at + name.length;
  }
  const from = new Int32Array(spans.length);
  const to = new Int32Array(spans.length);
  let k = 0;
  spans.forEach((span, j) => {
    while (k < n && (found[k]?.[0] ?? 0) < span.start) k++;
    let end = k;
    while (end < n && (found[end]?.[0] ?? 0) < span.end) end++;
    from[j] = k;
    to[j] = end;
  });
  return { buckets, starts, ends, from, to };
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
