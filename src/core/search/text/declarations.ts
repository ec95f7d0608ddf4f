/**
 * Exact names (issue 34). The index keeps the parts of an identifier (`NewThing` is `new` +
 * `thing`), so asked for `NewThing` a chunk that merely uses `new` and `thing` scores like the one
 * that defines it. Two more terms say where a whole name lives, both from its normalised form
 * (`exactName`: lower case, without `_`, `$` and `-`, so `NewThing`, `new_thing` and
 * `new-thing.ts` meet), hashed into a bucket (NAME_BUCKETS):
 * - `=name` in the chunk that declares `name` (a function, class, type, method, top-level
 *   variable, `exports.name`), found by one pass of DECLARATION over the file;
 * - `@name` in every chunk of the file whose name (without extension) is `name`.
 * A query word looks both up beside its parts (`exactQueryTerms`).
 */

/** Names too common to mark a declaration (control keywords a method-like line can start with). */
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'else', 'do', 'try', 'with', 'function', 'new', 'typeof', 'await', 'yield', 'super', 'constructor']);

/**
 * One line that declares a name, in one of three shapes: a declaration keyword (any depth for
 * functions and types, column 0 for `const`/`let`/`var`, so locals stay out); `exports.name =` or
 * `module.exports = class Name`; an indented method or `name: function` / `name = function`.
 * The indentation is read once (`(?![ \t])` keeps it from being given back a space at a time),
 * and a line is found by its break, not by `^` in multiline mode, which is tried at every
 * character of the text: the scan took a third of a cold build's added cost before.
 */
const KEYWORD_DECLARATION = String.raw`(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:pub(?:\([a-z]+\))?\s+)?(?:function\*?|class|interface|type|enum|def|fn|func(?:\s*\([^)\n]*\))?|struct|trait|namespace|module)\s+([A-Za-z_$][\w$]*)`;
const TOP_LEVEL_VARIABLE = String.raw`(?<=^|[\n\r])(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)`;
const EXPORTS_NAME = String.raw`(?:module\.exports\s*=\s*class\s+|(?:module\.)?exports\.)([A-Za-z_$][\w$]*)`;
const METHOD = String.raw`(?<=[ \t])(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*#?([A-Za-z_$][\w$]*)\s*(?:[:=]\s*(?:async\s+)?function\b|\([^)\n]*\)\s*(?::[^{\n]*)?\{)`;
const DECLARATION_LINE = String.raw`[ \t]*(?![ \t])(?:${KEYWORD_DECLARATION}|${TOP_LEVEL_VARIABLE}|${EXPORTS_NAME}|${METHOD})`;
/** A declaration after a line break (`\r` alone ends a line too); its line starts one past the match. */
const DECLARATION = new RegExp(String.raw`[\n\r]${DECLARATION_LINE}`, 'g');
/** The same on the first line. */
const FIRST_LINE_DECLARATION = new RegExp(DECLARATION_LINE, 'y');

/** The form names are compared in: lower case, without `_`, `$` and `-`. */
export function exactName(name: string): string {
  const lower = name.toLowerCase();
  return /[_$-]/.test(lower) ? lower.replace(/[_$-]/g, '') : lower;
}

/**
 * Exact names are terms by a hash of their normalised form, in NAME_BUCKETS buckets: nearly every
 * declared name is unique, and as terms of their own they multiplied the index's vocabulary (a
 * cold build 1.25x longer on the generated 5k workspace); bucketed, a query's exact term is shared
 * by a few other names, which its parts then outscore.
 */
export const NAME_BUCKETS = 1 << 14;

/** The bucket of a name (FNV-1a of its normalised form, `exactName`, hashed as it is read: no string is made for an ASCII name). */
export function nameBucket(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    let c = name.charCodeAt(i);
    if (c === 95 || c === 36 || c === 45) continue; // _ $ -
    if (c >= 65 && c <= 90) c += 32;
    else if (c >= 128) return normalisedBucket(exactName(name)); // the full Unicode lower case
    h = Math.imul(h ^ c, 0x01000193);
  }
  return (h >>> 0) % NAME_BUCKETS;
}

function normalisedBucket(normalised: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < normalised.length; i++) h = Math.imul(h ^ normalised.charCodeAt(i), 0x01000193);
  return (h >>> 0) % NAME_BUCKETS;
}

/** The term of a chunk that declares a name of `bucket`. */
export const declarationTermOfBucket = (bucket: number): string => `=${bucket.toString(36)}`;
/** The term of a chunk that declares `name`. */
export const declarationTerm = (name: string): string => declarationTermOfBucket(nameBucket(name));
/** The term of every chunk of a file named `name` (extension dropped). */
export const fileNameTerm = (name: string): string => `@${nameBucket(name).toString(36)}`;

/**
 * The declarations of a text as [offset of the line, name, offset of the name's characters], in
 * order. The third is where the same characters first occur in the match (the indexer scans the
 * name there, without a string: text/termCounter.ts `addMarks`); indexOf from the match's start
 * reads only its keywords, where the regex's `d` flag would allocate every group's offsets for
 * every match.
 */
export function declarationsIn(text: string): Array<[number, string, number]> {
  const out: Array<[number, string, number]> = [];
  const add = (m: RegExpExecArray, at: number): void => {
    const name = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (name && name.length > 1 && !NOT_NAMES.has(name)) out.push([at, name, text.indexOf(name, m.index)]);
  };
  FIRST_LINE_DECLARATION.lastIndex = 0;
  const first = FIRST_LINE_DECLARATION.exec(text);
  if (first) add(first, 0);
  DECLARATION.lastIndex = 0;
  for (let m = DECLARATION.exec(text); m; m = DECLARATION.exec(text)) add(m, m.index + 1);
  return out;
}

/** The file-name term of a workspace path (`lib/source-code-fixer.js` -> `@sourcecodefixer`), or undefined for a name of one letter. */
export function fileNameTermOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.', 1);
  const stemmed = exactName(dot > 0 ? base.slice(0, dot) : base);
  return stemmed.length > 1 ? fileNameTerm(stemmed) : undefined;
}

/** A query word that is an identifier of several parts (`mergeMap`, `no_shadow`, `SourceCodeFixer`, `no-shadow`). */
function isCompound(word: string): boolean {
  return /[a-z0-9][A-Z]|[A-Z]{2}[a-z]|[A-Za-z0-9][_-][A-Za-z0-9]/.test(word);
}

/** Weight of an exact-name term for a compound identifier, and for a plain word. */
export const EXACT_WEIGHT_COMPOUND = 3;
export const EXACT_WEIGHT_WORD = 0.25;

/**
 * The exact-name terms a query asks for, with their weights: each identifier-like word of three
 * characters or more, as a declaration and as a file name. A compound identifier weighs more
 * than a plain word (`mergeMap` names one thing; `map` is also English).
 */
export function exactQueryTerms(query: string, isFiller: (word: string) => boolean): Array<[string, number]> {
  const out = new Map<string, number>();
  for (const m of query.matchAll(/[A-Za-z_$][\w$]*(?:-[A-Za-z0-9_$]+)*/g)) {
    const word = m[0];
    const name = exactName(word);
    if (name.length < 3 || isFiller(word.toLowerCase())) continue;
    const weight = isCompound(word) ? EXACT_WEIGHT_COMPOUND : EXACT_WEIGHT_WORD;
    for (const term of [declarationTerm(name), fileNameTerm(name)]) out.set(term, Math.max(out.get(term) ?? 0, weight));
  }
  return [...out];
}
