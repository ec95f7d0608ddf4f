import ignore from 'ignore';
import { globToGitignore } from '../../workspace/ignoreRules';
import { forEachTerm } from '../text/identifiers';
import { spreadFiles } from './fileSpread';

/**
 * Path priors (issue 34): in real repositories test fixtures, vendored copies, generated code,
 * snapshots and versioned API documents repeat the words of the real code and outranked it. A
 * hit's score is multiplied by its path's prior: such files are demoted, never dropped, and a
 * query that names tests (`test`, `spec`, `fixture`, `mock`, `snapshot`) lifts the test demotion.
 * The user's own globs (`stratus.search.demoteGlobs`) demote like a fixture. A generated header
 * (text/generatedHeader.ts) is read when the file is indexed and kept as a term of its chunks.
 * A vendored package the query names (`grpc`, `bbolt`, `go-runc`) is not demoted: the question
 * is about it; nor is a vendored chunk that declares the compound identifier asked for
 * (`newHTTP2Client`), when that is where it lives (issue 41).
 * Build output beside its sources (issue 41: a monorepo's `lib/*.js`, `*.d.ts` and source maps
 * compiled from `src/*.ts`) repeats every name of the source: it is demoted like generated code
 * when the index holds the source it was compiled from, and only then (eslint's `lib/*.js` is the
 * source).
 */

/** Extra hits scored beyond the limit, so a demoted hit's place can be taken by the next ones. */
export const PRIOR_POOL = 50;

/** Demotions, strongest match first: each a path pattern and its factor. */
const TEST_PATH = /(?:^|\/)(?:__tests__|__mocks__|tests?|specs?|e2e|fixtures?|__fixtures__|testdata|test-?data|testing-?fixtures)(?:\/|$)|(?:^|\/)[^/]*[._-](?:test|spec)s?\.[^/]+$|(?:^|\/)test_[^/]*\.py$/i;
const SNAPSHOT_PATH = /(?:^|\/)__snapshots__\/|\.snap$/;
const VENDORED_PATH = /(?:^|\/)(?:vendor|third[_-]party|node_modules|bower_components|external)(?:\/|$)/i;
const GENERATED_PATH = /\.pb\.go$|_pb2(?:_grpc)?\.py$|\.pb\.(?:cc|h)$|\.min\.(?:js|css|mjs)$|\.g\.(?:ts|dart|cs)$|\.generated\.[^/]+$|(?:^|\/)(?:generated|__generated__|gen)\//i;
/** A vendored path's first folders: `vendor/<host>/<owner>/<repo>`, `node_modules/@scope/name`, `third_party/zlib`. */
const VENDORED_PACKAGE = /(?:^|\/)(?:vendor|third[_-]party|node_modules|bower_components|external)\/((?:@[^/]+\/)?[^/]+)(?:\/([^/]+))?(?:\/([^/]+))?/i;
/** Hosts whose paths name an owner before the repository (Go's module paths). */
const OWNER_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org']);

/** The name of the vendored package a path is in (`vendor/github.com/containerd/go-runc/runc.go` -> `go-runc`), if any. */
export function vendoredPackageName(path: string): string | undefined {
  const m = VENDORED_PACKAGE.exec(path);
  const first = m?.[1];
  if (!m || !first) return undefined;
  if (first.startsWith('@')) return first.slice(first.indexOf('/') + 1);
  if (!first.includes('.')) return first;
  return OWNER_HOSTS.has(first.toLowerCase()) ? m[3] : m[2];
}

/** Whether every word of a vendored package's name is among the query's terms. */
function namesPackage(queryTerms: ReadonlySet<string>, path: string): boolean {
  const name = vendoredPackageName(path);
  if (!name) return false;
  let all = true;
  let any = false;
  forEachTerm(name, (t) => {
    any = true;
    if (!queryTerms.has(t)) all = false;
  });
  return any && all;
}

/** Compiled output in a build folder: the folder before it, and the path inside it without the extension. */
const BUILD_OUTPUT_PATH = /^((?:[^/]+\/)*?)(?:lib|dist|out|build|esm|cjs)\/((?:[^/]+\/)*[^/]+?)\.(?:d\.[mc]?ts|[mc]?js)(?:\.map)?$/;
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

/** Whether the index holds a file (the sources build output is compared with). */
export type HasFile = (path: string) => boolean;

/** The TypeScript source a build output was compiled from, when the index holds it (`lib/a/b.js` -> `src/a/b.ts`). */
export function sourceOfBuildOutput(path: string, hasFile: HasFile): string | undefined {
  const m = BUILD_OUTPUT_PATH.exec(path);
  if (!m) return undefined;
  for (const ext of SOURCE_EXTENSIONS) {
    const source = `${m[1] ?? ''}src/${m[2] ?? ''}${ext}`;
    if (hasFile(source)) return source;
  }
  return undefined;
}

/** An API document per version: `v1/`, `v2beta1/`, `2023-01-01/` folders holding YAML or JSON. */
const VERSIONED_API_PATH = /(?:^|\/)(?:v\d+(?:(?:alpha|beta)\d*)?|\d{4}-\d{2}-\d{2})\/(?:[^/]+\/)*[^/]+\.(?:ya?ml|json)$/i;

export const PRIORS = { test: 0.5, snapshot: 0.3, vendored: 0.35, generated: 0.35, buildOutput: 0.35, versionedApi: 0.5, userGlob: 0.5 } as const;

/** Whether a path matches one of the user's demotion globs. */
export type DemotedPaths = (path: string) => boolean;

let lastGlobs: readonly string[] | undefined;
let lastMatcher: DemotedPaths | undefined;

/** The matcher of the user's globs (VS Code glob syntax, as `files.exclude`), kept while the setting stays the same. */
export function demotedPaths(globs: readonly string[]): DemotedPaths | undefined {
  if (globs.length === 0) return undefined;
  if (globs !== lastGlobs) {
    const rules = ignore({ allowRelativePaths: true }).add(globs.flatMap(globToGitignore));
    lastMatcher = (path) => rules.ignores(path);
    lastGlobs = globs;
  }
  return lastMatcher;
}

/** Whether a query asks about tests themselves (then test files are not demoted). */
export function wantsTests(query: string): boolean {
  return /\b(?:tests?|testing|specs?|fixtures?|mocks?|snapshots?)\b/i.test(query);
}

/** The factor a hit in `path` is scored by (1: ordinary code). */
export function pathPrior(path: string, testsWanted: boolean, demoted?: DemotedPaths, generatedHeader = false, hasFile?: HasFile, queryTerms?: ReadonlySet<string>, declaresAsked = false): number {
  if (VENDORED_PATH.test(path) && !declaresAsked && !(queryTerms && namesPackage(queryTerms, path))) return PRIORS.vendored;
  if (demoted?.(path)) return PRIORS.userGlob;
  if (generatedHeader || GENERATED_PATH.test(path)) return PRIORS.generated;
  if (hasFile && sourceOfBuildOutput(path, hasFile) !== undefined) return PRIORS.buildOutput;
  if (SNAPSHOT_PATH.test(path)) return testsWanted ? 1 : PRIORS.snapshot;
  if (VERSIONED_API_PATH.test(path)) return PRIORS.versionedApi;
  if (!testsWanted && TEST_PATH.test(path)) return PRIORS.test;
  return 1;
}

/**
 * The best `limit` hits once each score is multiplied by its path's prior (ties keep their order)
 * and each file's later chunks decayed (fileSpread.ts);
 * `generated`: the ids of hits in files whose header says they are generated (decided at index time);
 * `hasFile`: whether the index holds a path (build output is demoted when its source is there);
 * `declaring`: the ids of hits that declare a compound identifier the query asks for.
 */
export function applyPathPriors<T extends { path: string; score: number; id?: number }>(query: string, hits: readonly T[], limit: number, demoted?: DemotedPaths, generated?: ReadonlySet<number>, hasFile?: HasFile, declaring?: ReadonlySet<number>): T[] {
  const testsWanted = wantsTests(query);
  const terms = new Set<string>();
  forEachTerm(query, (t) => terms.add(t));
  const priorOf = new Map<string, number>();
  const scored = hits.map((h, i) => {
    const declares = h.id !== undefined && declaring?.has(h.id) === true;
    let prior = declares ? undefined : priorOf.get(h.path);
    if (prior === undefined) {
      prior = pathPrior(h.path, testsWanted, demoted, h.id !== undefined && generated?.has(h.id) === true, hasFile, terms, declares);
      if (!declares) priorOf.set(h.path, prior);
    }
    return { hit: prior === 1 ? h : { ...h, score: h.score * prior }, i };
  });
  scored.sort((a, b) => b.hit.score - a.hit.score || a.i - b.i);
  return spreadFiles(scored.map((s) => s.hit)).slice(0, limit);
}
