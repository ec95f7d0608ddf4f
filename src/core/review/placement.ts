import type { DiffIndex } from './diffParts';
import { findingKey, type ReviewFinding } from './findings';
import { witnessOf, type LineWitness } from './relocation';

/**
 * Where a finding goes: `exact` on the line it names (a line the diff shows), `nearest` on the
 * changed line closest to it (the line it named is outside the diff), `unplaced` when its file is
 * not in the diff, `deleted` when its file was deleted (both listed in the summary, never dropped).
 */
export type Placement = 'exact' | 'nearest' | 'unplaced' | 'deleted';

export interface PlacedFinding extends ReviewFinding {
  /** The repository-relative path of the diff it was matched to (`file` as the model wrote it otherwise). */
  readonly path: string;
  /** The 1-based line its comment goes on (the model's own line when unplaced). */
  readonly placedLine: number;
  readonly placement: Placement;
  /** The placed line's text in the reviewed diff: where the comment goes is found by it (the file may have changed since). */
  readonly lineText?: string;
  /** The placed line's text and the reviewed lines around it: tells it from another line with the same text (relocation.ts). */
  readonly witness?: LineWitness;
}

/**
 * `./src/a.ts`, `b/src/a.ts`, `src\a.ts` all to `src/a.ts`; a copied diff header too
 * (`### src/a.ts (modified, +3 -1)`, `old.ts → src/a.ts (renamed, +1 -2)`): its new path.
 */
function normalise(file: string): string {
  // A path that itself ends in ` (...)` still matches: matchPath tries the name as written too.
  const header = file.trim().replace(/^#+\s+/, '').replace(/(?:\s+\([^()]*\))+$/, '');
  const arrow = /^.* (?:→|->) /.exec(header);
  const path = arrow ? header.slice(arrow[0].length) : header;
  return path.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/^[ab]\//, '').replace(/^\/+/, '');
}

/** The diff's path a model's file name means: the same path, or the only one it is a suffix of (or that is a suffix of it). */
export function matchPath(file: string, paths: readonly string[]): string | undefined {
  const wanted = normalise(file);
  if (paths.includes(wanted)) return wanted;
  const raw = file.trim();
  if (paths.includes(raw)) return raw;
  const suffix = paths.filter((p) => p.endsWith(`/${wanted}`) || wanted.endsWith(`/${p}`));
  return suffix.length === 1 ? suffix[0] : undefined;
}

/** The changed line closest to `line` (the earlier one on a tie), or undefined when there is none. */
function nearest(changed: readonly number[], line: number): number | undefined {
  let best: number | undefined;
  for (const candidate of changed) {
    if (best === undefined || Math.abs(candidate - line) < Math.abs(best - line)) best = candidate;
  }
  return best;
}

/**
 * Places each finding on a line of the diff (see Placement), keeping one of each finding that
 * names the same file, line and message (the parts of a large diff may repeat one).
 */
export function placeFindings(findings: readonly ReviewFinding[], index: DiffIndex): { placed: PlacedFinding[]; duplicates: number } {
  const paths = [...index.keys()];
  const placed: PlacedFinding[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const finding of findings) {
    const path = matchPath(finding.file, paths);
    const lines = path !== undefined ? index.get(path) : undefined;
    let result: PlacedFinding;
    const withText = (line: number): { lineText?: string; witness?: LineWitness } => {
      const witness = lines ? witnessOf((l) => lines.text.get(l), line) : undefined;
      return witness === undefined ? {} : { lineText: witness.text, witness };
    };
    if (path === undefined || lines === undefined) {
      result = { ...finding, path: finding.file, placedLine: finding.line, placement: 'unplaced' };
    } else if (lines.deleted) {
      result = { ...finding, path, placedLine: finding.line, placement: 'deleted' };
    } else if (lines.shown.has(finding.line)) {
      result = { ...finding, path, placedLine: finding.line, placement: 'exact', ...withText(finding.line) };
    } else {
      const line = nearest(lines.changed, finding.line);
      result = line === undefined
        ? { ...finding, path, placedLine: finding.line, placement: 'unplaced' }
        : { ...finding, path, placedLine: line, placement: 'nearest', ...withText(line) };
    }
    const key = findingKey({ file: result.path, line: result.line, message: result.message });
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    placed.push(result);
  }
  return { placed, duplicates };
}
