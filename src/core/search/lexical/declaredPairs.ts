import { declarationTerm, fileNameTerm } from '../text/declarations';
import { forEachPart, normalizePart } from '../text/identifiers';

/**
 * Names made of a question's words (issue 41). Asked "where are import attributes parsed" or
 * "TreeModel expand and collapse nodes", the answer declares `parseImportAttributes`,
 * `expandNode`, `WorkspaceTrustService`: the words in one name, where a chunk that merely mentions
 * `parse`, `import` and `attributes` holds them apart. Each two adjacent words of the question, in
 * either order ("trust the workspace" -> `workspaceTrust`), as written and stemmed, are looked up
 * as a declared name (`=`) and a file name (`@`), boosting only chunks the words found.
 *
 * Measured on the quality bench's five corpora (bench/searchQuality.mjs), against the same order
 * without these terms: as they are here they changed no corpus's recall@10, recall@50 or MRR by
 * 0.01, and they are what ranks a declaration above mentions (test/unit/properties/
 * declaredNames.property.test.ts). Heavier (1.5, 3), or with the words' other forms (`collect` ->
 * `collector`: theia +0.04 recall@10), they lost MRR on eslint, rxjs or containerd.
 */

/** The weight of a declared or file name made of two adjacent words of the question. */
export const DECLARED_PAIR_WEIGHT = 0.75;
/** The longest run of words looked up as one name. */
const MAX_RUN = 4;

/** The words of a query, in order (filler dropped), each as written (lower case) and as its term. */
function queryWords(query: string): Array<{ raw: string; term: string }> {
  const out: Array<{ raw: string; term: string }> = [];
  forEachPart(query, (part) => {
    const term = normalizePart(part);
    if (term !== '' && out[out.length - 1]?.term !== term) out.push({ raw: part.toLowerCase(), term });
  });
  return out;
}

/** The declared-name and file-name terms of each run of two to four adjacent words of a query (two also reversed), with their weight. */
export function declaredPairTerms(query: string): Array<[string, number]> {
  const words = queryWords(query);
  const out = new Map<string, number>();
  const add = (name: string): void => {
    out.set(declarationTerm(name), DECLARED_PAIR_WEIGHT);
    out.set(fileNameTerm(name), DECLARED_PAIR_WEIGHT);
  };
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i];
    const b = words[i + 1];
    if (!a || !b) continue;
    for (const x of new Set([a.raw, a.term])) {
      for (const y of new Set([b.raw, b.term])) {
        add(x + y);
        add(y + x);
      }
    }
    for (let end = i + 3; end <= Math.min(words.length, i + MAX_RUN); end++) {
      const run = words.slice(i, end);
      add(run.map((w) => w.term).join(''));
      add(run.slice(0, -1).map((w) => w.term).join('') + (run[run.length - 1]?.raw ?? ''));
    }
  }
  return [...out];
}
