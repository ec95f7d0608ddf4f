/**
 * Declarations as the place an answer lives, matched in the question's words' other forms
 * (issue 41). Asked "watch the file system for changes", "resolve variables in a string" or
 * "collect problems with problem matchers", the answer declares `ParcelWatcher`,
 * `VariableResolverService`, `ProblemCollector`: the verb asked, the agent noun declared; asked
 * "open a websocket connection", it declares `connectNewChannel`. Each chunk carries a mark per
 * part of the compound names it declares (`~watcher`, `~variable`, `~resolver`; a name of one
 * word carries none: text/termCounter.ts `addMarks`), outside its BM25 length;
 * a query word looks up the marks of its other forms (`watch` -> `~watcher`, `connection` ->
 * `~connect`), boosting only chunks the query's words found. A form is matched there only, never
 * in free text or paths, and its idf is the form's as a plain word when that is lower (a form
 * every file uses, `server`, weighs little).
 *
 * Measured on the quality bench's five corpora (bench/searchQuality.mjs, lexical order; r@10 /
 * r@50 / MRR): theia 0.84 / 0.92 / 0.71 -> 1.00 / 1.00 / 0.74; eslint, jsdom, rxjs unchanged
 * (rxjs r@10 0.99 -> 1.00); containerd MRR 0.841 -> 0.838 (one question's answer 5th -> 7th). With
 * the marks of one-word names too, containerd MRR fell to 0.81 (`publish` -> the `Publisher`
 * interface outranked the exchange that publishes). Tried and not kept: all inflections (`-ed`, `-ing`,
 * `-ation` both ways: eslint and rxjs MRR -0.02 to -0.04), the marks of the words as written
 * (weight 0.25 to 1: containerd and rxjs MRR -0.02 to -0.08), a form only where another query word is
 * declared in the same chunk (theia's `DiffComputer` lost), a form capped at the chunk's weakest
 * exact word (theia's gains lost, containerd still -0.03).
 */

/** The term of a chunk that declares a name with the part `part` (a term of `forEachTerm`). */
export const declaredPartTerm = (part: string): string => `~${part}`;

/** The weight of a form's declared-part mark (its idf at most the form's as a plain word). */
export const DECLARED_FORM_WEIGHT = 1.5;

const VOWEL = /[aeiouy]/;

/** A root's agent nouns (`watch` -> `watcher`, `collect` -> `collector`, `resolve` -> `resolver`, `commit` -> `committer`). */
function addAgentNouns(root: string, out: Set<string>): void {
  if (root.length < 3) return;
  const stem = root.endsWith('e') ? root.slice(0, -1) : root;
  out.add(`${stem}er`).add(`${stem}or`);
  const n = root.length;
  const last = root.charAt(n - 1);
  if (!VOWEL.test(last) && VOWEL.test(root.charAt(n - 2)) && !VOWEL.test(root.charAt(n - 3)) && !'wxy'.includes(last)) out.add(`${root}${last}er`);
}

/**
 * The other forms of a query word (lower case, as `forEachTerm` gives it), never the word itself:
 * its agent nouns, and for an action noun in `-ion` its verb and the verb's agent nouns
 * (`connection` -> `connect`, `connector`; `creation` -> `create`, `creator`).
 */
export function wordForms(word: string): string[] {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return [];
  const out = new Set<string>();
  addAgentNouns(word, out);
  if (word.endsWith('ion') && word.length >= 6) {
    const verb = word.slice(0, -3);
    if (VOWEL.test(verb)) {
      const n = verb.length;
      const verbs = [verb, `${verb}e`];
      if (verb.charAt(n - 1) === verb.charAt(n - 2) && !VOWEL.test(verb.charAt(n - 1))) verbs.push(verb.slice(0, -1));
      for (const v of verbs) {
        out.add(v);
        addAgentNouns(v, out);
      }
    }
  }
  out.delete(word);
  return [...out];
}

/** The declared-part terms of the other forms of a query's words (`words`: its terms of weight 1), each with the plain form it takes its idf from when lower. */
export function declaredFormTerms(words: readonly string[]): Array<{ term: string; plain: string }> {
  const out = new Map<string, string>();
  for (const w of new Set(words)) for (const f of wordForms(w)) out.set(declaredPartTerm(f), f);
  return [...out].map(([term, plain]) => ({ term, plain }));
}
